import type { Clock } from '../model/clock.ts';
import type { Services } from './services.ts';
import type { XmlCodec } from './xml-codec.ts';

/** What every route plugin is given. */
export interface RouteDeps { services: Services; codec: XmlCodec; clock: Clock }
