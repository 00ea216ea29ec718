import type { CaptchaVerifier } from "./verifier.js";

/** The response the dev verifier accepts; anything else is a failed captcha. */
export const devCaptchaPass = "dev-captcha-pass";

/** The embedded default's verifier: no provider, one fixed answer that the demo and tests send. */
export const devCaptchaVerifier: CaptchaVerifier = {
  verify: async (_company, response) => response === devCaptchaPass,
};
