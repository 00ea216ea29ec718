/** How a session was authenticated, as auth/sessions shows it (docs/api-contract.md, "Assurance"). */
export interface SessionAuthentication {
  level: number;
  amr: string[];
  factors: Array<{ kind: string; amr: string; authenticated_at: string }>;
  authenticated_at?: string;
}

/**
 * Whether the session was signed in with a code of an authenticator app, which tells that the user
 * has one: replacing it then needs a code of it (docs/api-contract.md, "Authenticator app"). A user
 * signed in otherwise (a backup code, or before the app was set up) may have one all the same.
 */
export function signedInWithApp(authentication: SessionAuthentication | undefined): boolean {
  return authentication?.factors.some((factor) => factor.kind === "app_code") ?? false;
}
