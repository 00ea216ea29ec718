import type { CaptchaSettings } from "@auth/proto/identity";

/** One captcha provider: checks a client's response with the provider's service. */
export interface CaptchaProvider {
  verify(settings: CaptchaSettings, response: string, clientAddress: string): Promise<boolean>;
}
