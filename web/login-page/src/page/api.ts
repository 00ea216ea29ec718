import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type { PageConfig } from "../shared/page-config.js";
import { deviceId } from "./device-id.js";

/** spec section 3. */
export type SessionState =
  | "checkpassword"
  | "checkotp"
  | "setpassword"
  | "authorized"
  | "acceptdisclaimers"
  | "recovery-checkotp"
  | "recovery-checkquestion"
  | "recovery-setpassword";

/** spec 2.3. */
export interface Disclaimer {
  code: string;
  title: string;
  description: string;
  link: string;
}

/** The fields of the gateway's answers that the page reads (spec section 4). */
export interface Answer {
  status: "success" | "error";
  error_code?: string;
  session_token?: string;
  session_state?: SessionState;
  disclaimers_required?: Disclaimer[];
  captcha_required?: boolean;
  user_phone?: string;
  user_email?: string;
  control_question?: string;
  password_regex_description?: string | null;
  profile_mnemocode?: string;
  verification?: "PHONE" | "MAIL" | "QUESTION";
  /** auth/sessions (beyond the spec): read by sessions.ts. */
  sessions?: unknown[];
  /** auth/sessions/end: how many sessions ended. */
  ended?: number;
  /** auth/events (beyond the spec): read by security-events.ts. */
  events?: unknown[];
  /** auth/totp/enrol (beyond the spec): read by authenticator.ts. */
  otpauth_uri?: string;
  secret?: string;
  /** auth/totp/confirm and auth/passkeys/confirm: how many other sessions ended. */
  sessions_ended?: number;
  /**
   * A passkey's options for the browser (docs/decisions.md, "Passkeys"): in checkpassword (it may
   * replace the password), in checkotp (the second factor), and from auth/passkeys/start.
   */
  passkey_options?: PublicKeyCredentialRequestOptionsJSON;
  /** auth/passkeys/enrol: the new passkey's options. */
  options?: PublicKeyCredentialCreationOptionsJSON;
  /** auth/passkeys/list, and auth/passkeys/confirm's new one: read by passkey-settings.ts. */
  passkeys?: unknown[];
  passkey?: unknown;
  /**
   * auth/backupcodes/generate: the new set; auth/passkeys/confirm and auth/totp/confirm: the user's
   * first set, when the user had none. Shown once.
   */
  backup_codes?: string[];
}

export interface Reply {
  answer: Answer;
  /** The Retry-After of a refusal, in seconds. */
  retryAfterSeconds?: number;
}

/** `/{company}/v2/auth/{operation}` on the page's own origin, which passes it to the gateway. */
export const authPath = (config: PageConfig, operation: string): string =>
  `/${encodeURIComponent(config.companyCode)}/v2/auth/${operation}`;

/** Calls `/{company}/v2/auth/{operation}` (authPath). */
export async function postAuth(
  config: PageConfig,
  operation: string,
  body: object,
  token: string | undefined,
): Promise<Reply> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-api-key": config.apiKey,
    "x-device-id": deviceId(),
  };
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    const response = await fetch(authPath(config, operation), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Answer;
    const retryAfterSeconds = Number(response.headers.get("retry-after"));
    return retryAfterSeconds > 0 ? { answer, retryAfterSeconds } : { answer };
  } catch {
    // Nothing reached the gateway, or no JSON came back: to the user, the service is not there.
    return { answer: { status: "error", error_code: "service.unavailable" } };
  }
}
