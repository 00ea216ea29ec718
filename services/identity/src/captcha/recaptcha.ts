import type { CaptchaProvider } from "./provider.js";
import { siteverify, siteverifyForm } from "./siteverify.js";

const defaultUrl = "https://www.google.com/recaptcha/api/siteverify";
const defaultMinScore = 0.5;

/** Google reCAPTCHA v2 and v3; a v3 answer also needs a score of at least the company's minimum. */
export function recaptcha(timeoutMs: number): CaptchaProvider {
  return {
    async verify(settings, response, clientAddress) {
      const answer = await siteverify(
        settings.verifyUrl ?? defaultUrl,
        siteverifyForm(settings.secret, response, clientAddress),
        timeoutMs,
      );
      if (answer.success !== true) return false;
      return typeof answer.score !== "number" || answer.score >= (settings.minScore ?? defaultMinScore);
    },
  };
}
