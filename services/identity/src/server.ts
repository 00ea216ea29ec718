import { implement, tellingLockOuts } from "@auth/grpc-kit";
import { translateDatabaseError } from "@auth/pg";
import { IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import type { CheckSubject } from "@auth/proto/session";
import type { Logger, SecretBox, TtlCache } from "@auth/runtime";
import { identityAccess } from "./access.js";
import type { CaptchaCheck } from "./captcha/captcha-check.js";
import type { SessionCalls } from "./guess-budget.js";
import { adminHandlers } from "./handlers/admin.js";
import { contactChangeHandlers } from "./handlers/contact-changes.js";
import { flowHandlers } from "./handlers/flows.js";
import { lookups } from "./handlers/lookups.js";
import { passkeyHandlers } from "./handlers/passkeys.js";
import { totpHandlers } from "./handlers/totp.js";
import { Notifier, type NotifierOptions } from "./notifications/notifier.js";
import type { OAuthExchange } from "./oauth/exchange.js";
import type { PasswordHasher } from "./passwords.js";
import type { CompanyRow } from "./schema.js";
import type { IdentityStore } from "./store/identity-store.js";

export interface IdentityDependencies {
  store: IdentityStore;
  hasher: PasswordHasher;
  /** Seals the client secrets of OAuth providers and the secrets of company policies. */
  secrets: SecretBox;
  oauth: OAuthExchange;
  /** Checks captcha responses with the companies' providers (whose secrets stay here). */
  captcha: CaptchaCheck;
  /**
   * The session service: its budgets of guesses are spent before a password, an app code or a
   * passkey's assertion is compared, it ends a user's sessions when the user's authenticators
   * change, it records the logins OAuth providers verified and what passkeys proved, it binds
   * the passkey ceremonies' challenges to sessions, and it tells whose a session changing an
   * address is.
   */
  session: SessionCalls;
  /** The SHA-256 (hex) of the admin token operators present. */
  adminTokenSha256: string;
  /** Companies read by id, kept a few seconds (they are read on almost every call). */
  companies: TtlCache<CompanyRow>;
  /** Whose budget of guesses each login ID spends, kept a few seconds (docs/security.md, "Bursts"). */
  loginIdSubjects: TtlCache<CheckSubject>;
  /** The deployment's senders of notices to users, and their limits. */
  notices: Omit<NotifierOptions, "secrets" | "store" | "logger">;
}

/** The identity service: the operators' handlers and the other services' (access.ts says who calls which). */
export function identityService(dependencies: IdentityDependencies, logger: Logger) {
  const shared = lookups(dependencies.store, dependencies.companies, dependencies.loginIdSubjects);
  const notifier = new Notifier(
    { ...dependencies.notices, secrets: dependencies.secrets, store: dependencies.store, logger },
    shared,
  );
  // The lock-outs its own reports make, identity tells the users of itself (docs/security.md, "Notifications").
  const session: SessionCalls = {
    ...dependencies.session,
    ...tellingLockOuts(dependencies.session, (companyId, userId) =>
      notifier.notify(companyId, userId, NotificationEvent.LOCKED_OUT),
    ),
  };
  const handlerDependencies = { ...dependencies, session };
  return {
    /** Resolves once every notice started is sent or has failed. */
    noticesSent: () => notifier.idle(),
    name: "auth.identity.v1.IdentityService",
    definition: IdentityServiceService,
    implementation: implement(
      IdentityServiceService,
      {
        ...adminHandlers(handlerDependencies, shared, notifier),
        ...flowHandlers(handlerDependencies, shared, notifier),
        ...totpHandlers(handlerDependencies, shared, notifier),
        ...passkeyHandlers(handlerDependencies, shared, notifier),
        ...contactChangeHandlers(handlerDependencies, shared, notifier),
      },
      {
        logger,
        translateError: translateDatabaseError,
        access: identityAccess,
        adminTokenSha256: dependencies.adminTokenSha256,
      },
    ),
  };
}
