import { generate } from "otplib";
import { expect } from "vitest";
import type { ApiResponse } from "./api.js";

type Post = (operation: string, body: Record<string, unknown>, token?: string) => Promise<ApiResponse>;

/** The authenticator app's code for now, or for steps later (±1 step is accepted). */
export const totpCode = (secret: string, stepsLater = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsLater * 30 });

/**
 * Enrols an authenticator app through an authorized session (auth/totp/enrol, then
 * auth/totp/confirm with the app's current code, which is used up by it); returns its secret.
 */
export async function enrolAuthenticator(post: Post, authorizedToken: string): Promise<string> {
  const enrol = await post("totp/enrol", {}, authorizedToken);
  expect(enrol.body.status, JSON.stringify(enrol.body)).toBe("success");
  const secret = String(enrol.body.secret);
  const confirm = await post("totp/confirm", { code: await totpCode(secret) }, authorizedToken);
  expect(confirm.body.status, JSON.stringify(confirm.body)).toBe("success");
  return secret;
}

/** A code the app does not show around now (not within ±1 step): a wrong guess whenever it is sent. */
export async function wrongTotpCode(secret: string): Promise<string> {
  const near = await Promise.all([-1, 0, 1, 2].map((steps) => totpCode(secret, steps)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!near.includes(code)) return code;
  }
}
