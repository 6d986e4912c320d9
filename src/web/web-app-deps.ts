import type { ApiCodec } from '../http/api-codec.ts';
import type { Services } from '../http/services.ts';

/** What the web application is built from. */
export interface WebAppDeps {
  services: Services;
  publicUrl: string;
  /** The time zone pages show times in. */
  timeZone: string;
  /** Encodes the XML the review page's export link downloads. */
  codec: ApiCodec;
}
