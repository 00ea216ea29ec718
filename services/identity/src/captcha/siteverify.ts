import { AuthError } from "@auth/errors";
import type { CaptchaVerdict } from "./provider.js";

/**
 * POSTs a siteverify form (the protocol reCAPTCHA, hCaptcha and Turnstile share) and returns the
 * provider's JSON answer. A provider that cannot be reached in time is service.unavailable: the
 * client may try again, and no captcha is passed unverified.
 */
export async function siteverify(
  url: string,
  form: Record<string, string>,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new AuthError("service.unavailable", { detail: "captcha provider unreachable", cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AuthError("service.unavailable", { detail: `captcha provider answered ${response.status}` });
  }
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new AuthError("service.unavailable", { detail: "captcha provider answered no JSON", cause: error });
  }
}

/** The form fields every siteverify takes. */
export function siteverifyForm(
  secret: string,
  response: string,
  clientAddress: string,
): Record<string, string> {
  return clientAddress ? { secret, response, remoteip: clientAddress } : { secret, response };
}

/** A siteverify answer as a verdict, with the provider's error codes (never the secret or the response). */
export function verdictOf(answer: Record<string, unknown>): CaptchaVerdict {
  if (answer.success === true) return { passed: true };
  const codes = answer["error-codes"];
  return {
    passed: false,
    errorCodes: Array.isArray(codes) ? codes.filter((code) => typeof code === "string").slice(0, 5) : [],
  };
}
