import {
  type AsyncService,
  assertTimeLeft,
  type CallContext,
  companyLimits,
  compareUnderBudget,
  eventOriginOf,
} from "@auth/grpc-kit";
import { Factor } from "@auth/proto/events";
import { type IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import { CheckResult, type ReserveSecretCheckResponse, SecretKind } from "@auth/proto/session";
import { metrics } from "@auth/telemetry";
import { type FactorCheck, failureOf } from "../events.js";
import type { Notifier } from "../notifications/notifier.js";
import {
  beginTotpEnrolmentRequest,
  confirmTotpEnrolmentRequest,
  removeTotpRequest,
  verifyTotpRequest,
} from "../requests.js";
import type { UserRow } from "../schema.js";
import type { IdentityDependencies } from "../server.js";
import { parseStorableRequest } from "../text-fields.js";
import { newTotpSecret, totpStepOf, totpUri } from "../totp.js";
import { labelOf } from "../users.js";
import { backupCodeIssuing } from "./backup-code-issuing.js";
import type { Lookups } from "./lookups.js";

/** Where a code of the user's app is checked: the user, the client, the session. */
interface AppCodeCheck {
  companyId: string;
  userId: string;
  clientAddress: string;
  sessionToken?: string;
}

/**
 * The authenticator app as a second factor (docs/decisions.md, "TOTP"): enrolment through the
 * user's authorized session (the gateway), the login's check under the budget of app codes, and
 * its removal by an operator. Secrets are stored sealed (SecretBox), never in the clear.
 */
export function totpHandlers(
  dependencies: IdentityDependencies,
  { companyById, userById }: Lookups,
  notifier: Notifier,
) {
  const { store, secrets, session } = dependencies;
  const backupCodes = backupCodeIssuing(dependencies, notifier);

  /** A check of a code of the user's app, under the user's budget of app codes. */
  const appCodeGuessOf = async (input: AppCodeCheck) => ({
    companyId: input.companyId,
    subject: { userId: input.userId },
    kind: SecretKind.APP_CODE,
    limits: companyLimits((await companyById(input.companyId)).policy),
    sessionToken: input.sessionToken,
  });

  /** A check of a code of the user's app: a second factor. */
  const appCodeCheck = (context: CallContext, row: UserRow) => ({
    origin: eventOriginOf(context, row.id),
    companyId: row.companyId,
    userId: row.id,
    factor: Factor.APP_CODE,
    first: false,
  });

  /** Whether the code is one of the user's app (±1 step), using its step up: each code works once. */
  async function useAppCode(check: FactorCheck & { userId: string }, row: UserRow, code: string) {
    metrics.secretsCompared.inc({ kind: "totp" });
    if (row.totpSecret === null) return { valid: false };
    const step = await totpStepOf(secrets.open(row.totpSecret), code);
    return { valid: step !== undefined && (await store.useTotpStep(check, step)) };
  }

  /** Checks a code of the user's app under the user's budget of app codes, and records a failure. */
  async function checkAppCode(context: CallContext, row: UserRow, input: AppCodeCheck, code: string) {
    const check = appCodeCheck(context, row);
    const checked = await compareUnderBudget(session, await appCodeGuessOf(input), () =>
      useAppCode(check, row, code),
    );
    await store.recordCheckFailed(check, failureOf(checked.check.outcome, checked.verdict?.valid));
    return checked;
  }

  /**
   * The code of the app a new one replaces (docs/decisions.md, "Second factors"), so that a session
   * alone cannot swap the user's app for its holder's: checked as a login's code is, under the
   * budget of app codes, and a right one reported at once, as no session move rests on it.
   */
  async function checkCurrentApp(
    context: CallContext,
    row: UserRow,
    input: AppCodeCheck & { currentCode?: string },
  ): Promise<{ right: boolean; check?: ReserveSecretCheckResponse }> {
    const { currentCode } = input;
    if (!currentCode) return { right: false };
    const { check, verdict } = await checkAppCode(context, row, input, currentCode);
    if (!verdict?.valid) return { right: false, check };
    await session.reportSecretCheck({
      companyId: input.companyId,
      checkId: check.checkId,
      result: CheckResult.RIGHT,
    });
    return { right: true, check };
  }

  return {
    async beginTotpEnrolment(request) {
      const input = parseStorableRequest(beginTotpEnrolmentRequest, request);
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const secret = newTotpSecret();
      await store.setPendingTotp(row.companyId, row.id, secrets.seal(secret));
      return { otpauthUri: totpUri(secret, company.name, labelOf(row)), secret };
    },

    async confirmTotpEnrolment(request, context) {
      const input = parseStorableRequest(confirmTotpEnrolmentRequest, request);
      const row = await userById(input.companyId, input.userId);
      const refused = { enrolled: false, backupCodes: [] };
      if (row.totpPendingSecret === null) return { ...refused, currentCodeRefused: false };
      // The new app's code first: a mistyped one must not use up the current app's code. Whoever
      // asks knows the pending secret already, so its code needs no budget.
      metrics.secretsCompared.inc({ kind: "totp" });
      const step = await totpStepOf(secrets.open(row.totpPendingSecret), input.code);
      if (step === undefined) return { ...refused, currentCodeRefused: false };
      const current = row.totpSecret === null ? undefined : await checkCurrentApp(context, row, input);
      if (current && !current.right)
        return { ...refused, currentCodeRefused: true, currentCheck: current.check };
      const firstSet = row.hasBackupCodes ? undefined : await backupCodes.prepare();
      // Not after the gateway has answered 503: the user was told nothing changed.
      assertTimeLeft(context.deadline);
      const origin = eventOriginOf(context, row.id);
      const enrolled = await store.confirmTotp(row.companyId, row.id, row.totpPendingSecret, step, origin);
      if (!enrolled) return { ...refused, currentCodeRefused: false, currentCheck: current?.check };
      notifier.notify(row.companyId, row.id, NotificationEvent.AUTHENTICATOR_APP_ADDED);
      return {
        enrolled,
        currentCodeRefused: false,
        currentCheck: current?.check,
        backupCodes: firstSet ? await backupCodes.giveFirst(row.companyId, row.id, firstSet, origin) : [],
      };
    },

    async verifyTotp(request, context) {
      const input = parseStorableRequest(verifyTotpRequest, request);
      const row = await userById(input.companyId, input.userId);
      const { check, verdict } = await checkAppCode(context, row, input, input.code);
      return { valid: verdict?.valid ?? false, check };
    },

    async removeTotp(request, context) {
      const input = parseStorableRequest(removeTotpRequest, request);
      const removed = await store.removeTotp(
        input.companyId,
        input.userId,
        eventOriginOf(context, input.userId),
      );
      // A factor changed: the user's sessions end (docs/security.md, "What ends a session").
      if (removed) {
        await session.revokeUserSessions({ companyId: input.companyId, userId: input.userId });
        notifier.notify(input.companyId, input.userId, NotificationEvent.AUTHENTICATOR_APP_REMOVED);
      }
      return { removed };
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
