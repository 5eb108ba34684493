// What every resource's API routes are registered with (src/app.ts).
import type { Config } from '../../config.js';
import type { Services } from '../../services/types.js';

export interface RouteDeps {
  services: Services;
  config: Pick<Config, 'publicUrl'>;
}
