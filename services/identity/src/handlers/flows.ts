import { AuthError } from "@auth/errors";
import {
  type AsyncService,
  assertTimeLeft,
  type CallContext,
  companyLimits,
  compareUnderBudget,
  eventOriginOf,
} from "@auth/grpc-kit";
import { Factor } from "@auth/proto/events";
import { type IdentityServiceService, NotificationEvent, PasswordProblem } from "@auth/proto/identity";
import { OtpPurpose } from "@auth/proto/otp";
import { LinkPurpose } from "@auth/proto/recovery";
import {
  CaptchaVerdict,
  CheckOutcome,
  type CheckSubject,
  type GetCredentialChangeResponse,
  SecretKind,
  SessionState,
} from "@auth/proto/session";
import { metrics } from "@auth/telemetry";
import { hashApiKey } from "../api-keys.js";
import { storedFormOf } from "../backup-codes.js";
import { toCompany } from "../companies.js";
import { companyTextsOf } from "../company-texts.js";
import { normalizeControlAnswer } from "../control-answers.js";
import { type FactorCheck, failureOf } from "../events.js";
import type { Notifier } from "../notifications/notifier.js";
import { passwordProblem } from "../password-policy.js";
import { openPolicySecrets } from "../policy-secrets.js";
import {
  authenticateApiKeyRequest,
  exchangeOAuthCodeRequest,
  findUserRequest,
  getUserRequest,
  mailDeliveryRequest,
  notifyUserRequest,
  setPasswordRequest,
  smsDeliveryRequest,
  useBackupCodeRequest,
  verifyCaptchaRequest,
  verifyControlAnswerRequest,
  verifyCredentialsRequest,
  verifyPasswordRequest,
} from "../requests.js";
import type { CompanyRow, UserRow } from "../schema.js";
import type { IdentityDependencies } from "../server.js";
import type { StoredUser } from "../store/identity-store.js";
import { parseStorableRequest } from "../text-fields.js";
import { passwordChangeRequired, passwordRulesOf, storedPassword, toUser } from "../users.js";
import { isSameSubject, type Lookups, type NamedUser } from "./lookups.js";

/** The cap on recovery messages counts those of the last hour. */
const recoveryMessageWindowSeconds = 3600;

/** Thrown for a login ID that names another user (or none) now than the budget's subject it was reserved under. */
class LoginIdMoved extends Error {
  constructor(readonly named: NamedUser) {
    super("the login ID names another user now");
  }
}

/**
 * What the other services call in their flows: the gateway (logins, passwords, second factors,
 * OAuth, the notices of what the session service answered it), otp and recovery (their deliveries,
 * which spend a recovery's messages).
 * getUser and findUser serve operators too.
 */
export function flowHandlers(
  { store, hasher, secrets, oauth, captcha, session }: IdentityDependencies,
  { companyById, userById, recipient, lookUp, subjectNamed }: Lookups,
  notifier: Notifier,
) {
  /**
   * One verification whatever the case, in the stored hash's scheme; a hash with weaker parameters,
   * made before normalisation or imported in another scheme, is replaced by an argon2id one of the
   * password's NFKC form (docs/security.md, "Passwords"). The user is given for the right password only.
   */
  async function checkPassword(row: StoredUser | undefined, company: CompanyRow, password: string) {
    metrics.secretsCompared.inc({ kind: "password" });
    const stored = row && storedPassword(row);
    if (!row || !stored) {
      await hasher.verifyNothing(password);
      return { valid: false, passwordChangeRequired: false };
    }
    if (!(await hasher.verifyPassword(stored, password)))
      return { valid: false, passwordChangeRequired: false };
    if (!stored.passwordNfkc || hasher.needsRehash(stored.passwordHash)) {
      await store.rehashPassword(row.companyId, row.id, await hasher.hashPassword(password));
    }
    return {
      valid: true,
      passwordChangeRequired: passwordChangeRequired(row, company.policy, password),
      user: toUser(row, company.policy),
    };
  }

  /**
   * The session that changes the user's password, as the session service tells
   * (GetCredentialChange); undefined unless it is of this very company and user. A password is
   * written only for a session claimed for this change; an operator sets one through UpdateUser
   * (docs/security.md, "Trust between the services").
   */
  async function changeOf(input: { companyId: string; userId: string; sessionToken?: string }) {
    if (!input.sessionToken) return undefined;
    const change = await session.getCredentialChange({ sessionToken: input.sessionToken });
    return change.companyId === input.companyId && change.userId === input.userId ? change : undefined;
  }

  /**
   * Whether the new password is the current one, compared with the stored hash only for a session
   * in setpassword that checked the password itself: the compare tells it nothing it has not
   * proven. To any other session (a recovery's, the signed-in user's) it would be a check of the
   * password outside the user's budget, so it is not made (docs/decisions.md, "Passwords").
   */
  async function isCurrentPassword(
    row: UserRow,
    change: GetCredentialChangeResponse | undefined,
    password: string,
  ): Promise<boolean> {
    const current = storedPassword(row);
    if (!current || change?.state !== SessionState.SETPASSWORD || !change.passwordChecked) return false;
    metrics.secretsCompared.inc({ kind: "password" });
    return hasher.verifyPassword(current, password);
  }

  /** A check of the password: a login's first factor, of the user if the password is any user's. */
  const passwordCheck = (
    context: CallContext,
    companyId: string,
    userId: string | undefined,
  ): FactorCheck => ({
    origin: eventOriginOf(context, userId),
    companyId,
    userId,
    factor: Factor.PASSWORD,
    first: true,
  });

  /** Whether the company's captcha provider accepts the client's response (its secret stays here). */
  const captchaPasses = (company: CompanyRow, response: string, clientAddress: string) =>
    captcha.verify(openPolicySecrets(company.policy, secrets).captcha, response, clientAddress);

  /**
   * A check of a password under the user's budget, with the captcha the client sent verified here,
   * where the company's secret is, before the session service reserves the check.
   */
  const passwordGuessOf = async (
    company: CompanyRow,
    input: { captchaResponse?: string; clientAddress: string },
  ) => ({
    companyId: company.id,
    kind: SecretKind.PASSWORD,
    limits: companyLimits(company.policy),
    captcha:
      input.captchaResponse === undefined
        ? CaptchaVerdict.UNSPECIFIED
        : (await captchaPasses(company, input.captchaResponse, input.clientAddress))
          ? CaptchaVerdict.PASSED
          : CaptchaVerdict.FAILED,
  });

  /**
   * Spends one of the user's recovery messages as a recovery's code or link, or a change of
   * address's, is handed out for sending (docs/decisions.md, "Recovery", "Changing an address").
   */
  async function spendRecoveryMessage(company: CompanyRow, user: UserRow) {
    const limit = company.policy.recoveryMessagesPerHour;
    const result = await store.spendRecoveryMessage(company.id, user.id, limit, recoveryMessageWindowSeconds);
    if (!result.spent) {
      throw new AuthError("request.ratelimit.exceeded", {
        retryAfterSeconds: result.retryAfterSeconds,
        detail: "no more recovery messages for this user this hour",
      });
    }
  }

  /**
   * A recovery's message, once spent, tells the user the recovery started (docs/security.md,
   * "Notifications"): no notice for a send the cap refused.
   */
  async function spendRecoveryStart(company: CompanyRow, user: UserRow) {
    await spendRecoveryMessage(company, user);
    notifier.notify(company.id, user.id, NotificationEvent.RECOVERY_STARTED);
  }

  return {
    async authenticateApiKey(request) {
      const input = parseStorableRequest(authenticateApiKeyRequest, request);
      const company = await store.findCompanyByApiKey(hashApiKey(input.apiKey));
      if (!company || company.code !== input.companyCode) throw new AuthError("auth.apikey.invalid");
      return { company: toCompany(company, secrets) };
    },

    async getUser(request) {
      const input = parseStorableRequest(getUserRequest, request);
      const company = await companyById(input.companyId);
      return { user: toUser(await userById(input.companyId, input.userId), company.policy) };
    },

    async findUser(request) {
      const input = parseStorableRequest(findUserRequest, request);
      const company = await companyById(input.companyId);
      const { normalizedLoginId, row } = await lookUp(company, input.loginId);
      return { normalizedLoginId, user: row && toUser(row, company.policy) };
    },

    // The budget comes first, before the user's row is read and the password hashed: a guess the
    // budget refuses holds no database connection (docs/security.md, "Bursts").
    async verifyPassword(request, context) {
      const input = parseStorableRequest(verifyPasswordRequest, request);
      const company = await companyById(input.companyId);
      const { check, verdict } = await compareUnderBudget(
        session,
        {
          ...(await passwordGuessOf(company, input)),
          subject: { userId: input.userId },
          sessionToken: input.sessionToken,
        },
        async () =>
          checkPassword(await store.findUser(input.companyId, input.userId), company, input.password),
      );
      await store.recordCheckFailed(
        passwordCheck(context, company.id, input.userId),
        failureOf(check.outcome, verdict?.valid),
      );
      return {
        valid: verdict?.valid ?? false,
        passwordChangeRequired: verdict?.passwordChangeRequired ?? false,
        user: verdict?.user,
        check,
      };
    },

    async verifyCredentials(request, context) {
      const input = parseStorableRequest(verifyCredentialsRequest, request);
      const company = await companyById(input.companyId);
      /** Compares the password of the user `read` gives under `subject`'s budget, if it is that user's. */
      const guess = await passwordGuessOf(company, input);
      const compareAs = async (subject: CheckSubject, read: () => Promise<NamedUser>) => ({
        subject,
        ...(await compareUnderBudget(session, { ...guess, subject }, async () => {
          const named = await read();
          if (!isSameSubject(named.subject, subject)) throw new LoginIdMoved(named);
          return checkPassword(named.row, company, input.password);
        })),
      });
      const named = await subjectNamed(company, input.loginId);
      const { subject, check, verdict } = await compareAs(named.subject, named.read).catch(
        (error: unknown) => {
          // The login ID names another user (or none) than it did a moment ago: the check reserved
          // under the old one was given back, and the password is compared under the new one's.
          if (!(error instanceof LoginIdMoved)) throw error;
          return compareAs(error.named.subject, async () => error.named);
        },
      );
      // A login ID that names no user is a company's failure: the login ID is never in the event.
      await store.recordCheckFailed(
        passwordCheck(context, company.id, subject.userId || undefined),
        failureOf(check.outcome, verdict?.valid),
      );
      return {
        normalizedLoginId: named.normalizedLoginId,
        user: verdict?.user,
        passwordChangeRequired: verdict?.passwordChangeRequired ?? false,
        check,
      };
    },

    async setPassword(request, context) {
      const input = parseStorableRequest(setPasswordRequest, request);
      const change = await changeOf(input);
      const claimId = change?.claimed ? change.claimId : undefined;
      if (!input.validateOnly && !claimId) {
        throw new AuthError("auth.token.invalid", {
          detail: "no session claimed for a password change of this user",
        });
      }
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      // This change wrote the password before its answer was lost: not again, and no compare
      // (docs/decisions.md, "Idempotency-Key").
      if (!input.validateOnly && row.passwordClaimId === claimId) return {};
      const problem =
        passwordProblem(input.newPassword, passwordRulesOf(row, company)) ??
        ((await isCurrentPassword(row, change, input.newPassword))
          ? PasswordProblem.SAME_AS_CURRENT
          : undefined);
      if (problem || !claimId || input.validateOnly) return { problem };
      const passwordHash = await hasher.hashPassword(input.newPassword);
      // Not after the gateway has answered 503: the user was told the password did not change.
      assertTimeLeft(context.deadline);
      await store.changePassword(
        row.companyId,
        row.id,
        { passwordHash, claimId },
        eventOriginOf(context, row.id),
      );
      notifier.notify(row.companyId, row.id, NotificationEvent.PASSWORD_CHANGED);
      return {};
    },

    // The gateway reserved the check under the user's budget of backup codes (compareInSession).
    async useBackupCode(request, context) {
      const input = parseStorableRequest(useBackupCodeRequest, request);
      const check = {
        origin: eventOriginOf(context, input.userId),
        companyId: input.companyId,
        userId: input.userId,
        factor: Factor.BACKUP_CODE,
        first: false,
      };
      metrics.secretsCompared.inc({ kind: "backup_code" });
      const stored = await store.anyBackupCode(input.companyId, input.userId);
      const valid =
        stored === undefined
          ? await hasher.verifyNothing(input.backupCode)
          : await store.useBackupCode(
              check,
              await storedFormOf(hasher, stored, input.userId, input.backupCode),
            );
      await store.recordCheckFailed(check, failureOf(CheckOutcome.ALLOWED, valid));
      return { valid };
    },

    async verifyControlAnswer(request) {
      const input = parseStorableRequest(verifyControlAnswerRequest, request);
      const row = await userById(input.companyId, input.userId);
      const answer = normalizeControlAnswer(input.answer);
      metrics.secretsCompared.inc({ kind: "control_answer" });
      if (!row.controlAnswerHash) return { valid: await hasher.verifyNothing(answer) };
      return { valid: await hasher.verify(row.controlAnswerHash, answer) };
    },

    async exchangeOAuthCode(request) {
      const input = parseStorableRequest(exchangeOAuthCodeRequest, request);
      const company = await companyById(input.companyId);
      const provider = await store.findOAuthProvider(company.id, input.slot);
      if (!provider)
        throw new AuthError("request.validation.failed", { detail: "provider_id: no provider in this slot" });
      const { subject, authenticatedAt, multiFactor } = await oauth.loginFor(
        provider,
        secrets.open(provider.clientSecretEncrypted),
        input,
      );
      const row = await store.findUserByOAuthSubject(company.id, input.slot, subject);
      if (!row) return { subject, checkId: "", multiFactor };
      // The session that starts on this login carries it as its factor, as the session service
      // recorded it: no caller states how a session was authenticated (docs/decisions.md, "OAuth").
      const { checkId } = await session.recordFederatedLogin({
        companyId: company.id,
        userId: row.id,
        authenticatedAt,
        multiFactor,
      });
      return { subject, user: toUser(row, company.policy), checkId, multiFactor };
    },

    async verifyCaptcha(request) {
      const input = parseStorableRequest(verifyCaptchaRequest, request);
      const company = await companyById(input.companyId);
      return { valid: await captchaPasses(company, input.captchaResponse, input.clientAddress) };
    },

    async getSmsDelivery(request) {
      const input = parseStorableRequest(smsDeliveryRequest, request);
      const { company, user } = await recipient(input.companyId, input.userId);
      // A phone change's code goes to the pending phone.
      const change = input.purpose === OtpPurpose.PHONE_CHANGE;
      const phone = change
        ? await store.contactChanges.pending(company.id, user.id, "phone")
        : (user.phone ?? undefined);
      if (phone && change) await spendRecoveryMessage(company, user);
      if (phone && input.purpose === OtpPurpose.RECOVERY) await spendRecoveryStart(company, user);
      return {
        phone,
        sms: openPolicySecrets(company.policy, secrets).sms,
        homeRegion: company.policy.defaultPhoneRegion,
        defaultLanguage: company.policy.defaultLanguage,
        texts: companyTextsOf(company.policy).filter(({ namespace }) => namespace === "sms"),
      };
    },

    async getMailDelivery(request) {
      const input = parseStorableRequest(mailDeliveryRequest, request);
      const { company, user } = await recipient(input.companyId, input.userId);
      const linkBase = company.policy.recovery?.linkBase ?? "";
      // An e-mail change's link goes to the pending e-mail.
      const change = input.purpose === LinkPurpose.EMAIL_CHANGE;
      const email = change
        ? await store.contactChanges.pending(company.id, user.id, "email")
        : (user.email ?? undefined);
      if (email && linkBase) await (change ? spendRecoveryMessage : spendRecoveryStart)(company, user);
      return {
        email,
        companyName: company.name,
        linkBase,
        mail: openPolicySecrets(company.policy, secrets).mail,
        brand: company.policy.brand,
        defaultLanguage: company.policy.defaultLanguage,
        texts: companyTextsOf(company.policy).filter(({ namespace }) => namespace === "mail"),
      };
    },

    async notifyUser(request) {
      const input = parseStorableRequest(notifyUserRequest, request);
      notifier.notify(input.companyId, input.userId, input.event, { userAgent: input.userAgent });
      return {};
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
