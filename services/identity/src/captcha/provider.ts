import type { CaptchaSettings } from "@auth/proto/identity";

/** What a provider made of a response; `errorCodes` are its reasons for a refusal (siteverify's). */
export interface CaptchaVerdict {
  passed: boolean;
  errorCodes?: string[];
}

/** One captcha provider: checks a client's response with the provider's service. */
export interface CaptchaProvider {
  verify(settings: CaptchaSettings, response: string, clientAddress: string): Promise<CaptchaVerdict>;
}
