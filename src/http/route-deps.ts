import type { Clock } from '../model/clock.ts';
import type { Services } from './services.ts';
import type { XmlCodec } from './xml-codec.ts';

/** What every route plugin is given. */
export interface RouteDeps {
  services: Services; codec: XmlCodec; clock: Clock;
  /** The interface's public base address (APAS_PUBLIC_URL + /services/v2), for links in answers. */
  apiUrl: string;
}
