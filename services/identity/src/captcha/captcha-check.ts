import {
  type CaptchaSettings,
  captchaProviderToJSON,
  CaptchaProvider as Provider,
} from "@auth/proto/identity";
import type { Logger } from "@auth/runtime";
import { dev } from "./dev.js";
import { hcaptcha } from "./hcaptcha.js";
import type { CaptchaProvider, CaptchaVerdict } from "./provider.js";
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
  /** Where a failed check says why (docs/operations.md, "Captcha"). */
  logger: Logger;
}

/** The one list of captcha providers. A company without one, or with dev where dev is not allowed, never passes. */
export function captchaCheck(options: CaptchaOptions): CaptchaCheck {
  const providers: Partial<Record<Provider, CaptchaProvider>> = {
    [Provider.RECAPTCHA]: recaptcha(options.timeoutMs),
    [Provider.HCAPTCHA]: hcaptcha(options.timeoutMs),
    [Provider.TURNSTILE]: turnstile(options.timeoutMs),
    ...(options.allowDev ? { [Provider.DEV]: dev } : {}),
  };
  const { logger } = options;
  return {
    async verify(settings, response, clientAddress) {
      const kind = settings ? captchaProviderToJSON(settings.provider) : "none";
      const provider = settings && providers[settings.provider];
      if (!settings || !provider) {
        // The operator's to fix: every captcha of the company fails until then.
        logger.warn(
          {
            provider: kind,
            reason:
              settings?.provider === Provider.DEV
                ? "the dev captcha is not allowed here (ALLOW_DEV_CAPTCHA=false)"
                : "the company has no captcha provider (policy.captcha)",
          },
          "captcha check failed",
        );
        return false;
      }
      let verdict: CaptchaVerdict;
      try {
        verdict = await provider.verify(settings, response, clientAddress);
      } catch (error) {
        logger.warn(
          {
            provider: kind,
            reason: "provider unreachable",
            detail: error instanceof Error ? error.message : "",
          },
          "captcha check failed",
        );
        throw error;
      }
      if (!verdict.passed) {
        logger.info(
          { provider: kind, reason: "rejected by the provider", errorCodes: verdict.errorCodes },
          "captcha check failed",
        );
      }
      return verdict.passed;
    },
  };
}
