import type { CaptchaProvider } from "./provider.js";

/** The response the dev provider accepts; anything else is a failed captcha. */
export const devCaptchaPass = "dev-captcha-pass";

/** The embedded default's provider: no service, one fixed answer that the demo and the tests send. */
export const dev: CaptchaProvider = {
  verify: async (_settings, response) => ({ passed: response === devCaptchaPass }),
};
