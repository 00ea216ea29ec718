import type { Company } from "@auth/proto/identity";

/** Checks a client's captcha response with the company's captcha provider. */
export interface CaptchaVerifier {
  verify(company: Company, response: string, clientAddress: string): Promise<boolean>;
}
