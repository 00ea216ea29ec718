import { type CaptchaSettings, CaptchaProvider as Provider } from "@auth/proto/identity";
import { dev } from "./dev.js";
import { hcaptcha } from "./hcaptcha.js";
import type { CaptchaProvider } from "./provider.js";
import { recaptcha } from "./recaptcha.js";
import { turnstile } from "./turnstile.js";

/** Verifies a captcha response with the provider a company configured (its secret opened). */
export interface CaptchaCheck {
  verify(settings: CaptchaSettings | undefined, response: string, clientAddress: string): Promise<boolean>;
}

export interface CaptchaOptions {
  /** Whether companies may use the dev provider (the embedded default and tests only). */
  allowDev: boolean;
  timeoutMs: number;
}

/** The one list of captcha providers. A company without one, or with dev where dev is not allowed, never passes. */
export function captchaCheck(options: CaptchaOptions): CaptchaCheck {
  const providers: Partial<Record<Provider, CaptchaProvider>> = {
    [Provider.RECAPTCHA]: recaptcha(options.timeoutMs),
    [Provider.HCAPTCHA]: hcaptcha(options.timeoutMs),
    [Provider.TURNSTILE]: turnstile(options.timeoutMs),
    ...(options.allowDev ? { [Provider.DEV]: dev } : {}),
  };
  return {
    async verify(settings, response, clientAddress) {
      if (!settings) return false;
      return providers[settings.provider]?.verify(settings, response, clientAddress) ?? false;
    },
  };
}
