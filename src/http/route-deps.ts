import type { Clock } from '../model/clock.ts';
import type { ApiCodec } from './api-codec.ts';
import type { Services } from './services.ts';

/** What every route plugin is given. */
export interface RouteDeps {
  services: Services; codec: ApiCodec; clock: Clock;
  /** The interface's public base address (APAS_PUBLIC_URL + /services/v2), for links in answers. */
  apiUrl: string;
}
