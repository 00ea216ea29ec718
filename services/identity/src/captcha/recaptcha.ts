import type { CaptchaProvider } from "./provider.js";
import { siteverify, siteverifyForm, verdictOf } from "./siteverify.js";

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
      const minScore = settings.minScore ?? defaultMinScore;
      if (answer.success === true && typeof answer.score === "number" && answer.score < minScore)
        return { passed: false, errorCodes: [`score ${answer.score} below ${minScore}`] };
      return verdictOf(answer);
    },
  };
}
