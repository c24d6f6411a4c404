import type { Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { ProductionSdiChannel } from './drivers/production.driver.js';
import { SandboxSdiChannel } from './drivers/sandbox.driver.js';
import { SDI_CHANNEL, type SdiChannel } from './sdi-channel.port.js';

/** SDI_CHANNEL as the configuration asks (SDI_CHANNEL): the sandbox in development, the production channel otherwise. */
export const sdiChannelProvider: Provider = {
  provide: SDI_CHANNEL,
  inject: [APP_CONFIG, SandboxSdiChannel],
  useFactory: (config: AppConfig, sandbox: SandboxSdiChannel): SdiChannel => (config.invoices.sdiChannel === 'sandbox' ? sandbox : new ProductionSdiChannel()),
};
