import type { CaptchaProvider } from "./provider.js";
import { siteverify, siteverifyForm, verdictOf } from "./siteverify.js";

const defaultUrl = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** Cloudflare Turnstile. */
export function turnstile(timeoutMs: number): CaptchaProvider {
  return {
    async verify(settings, response, clientAddress) {
      const answer = await siteverify(
        settings.verifyUrl ?? defaultUrl,
        siteverifyForm(settings.secret, response, clientAddress),
        timeoutMs,
      );
      return verdictOf(answer);
    },
  };
}
