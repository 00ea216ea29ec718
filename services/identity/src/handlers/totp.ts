import { type AsyncService, assertTimeLeft, compareUnderBudget } from "@auth/grpc-kit";
import { type IdentityServiceService, NotificationEvent } from "@auth/proto/identity";
import { SecretKind } from "@auth/proto/session";
import { metrics } from "@auth/telemetry";

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
import type { Lookups } from "./lookups.js";

/** What the authenticator app shows beside the company's name: the user's first login ID. */
function labelOf(row: UserRow): string {
  return row.email ?? row.loginName ?? row.phone ?? row.profileMnemocode;
}

/**
 * The authenticator app as a second factor (docs/decisions.md, "TOTP"): enrolment through the
 * user's authorized session (the gateway), the login's check under the OTP budget, and its removal
 * by an operator. Secrets are stored sealed (SecretBox), never in the clear.
 */
export function totpHandlers(
  { store, secrets, session }: IdentityDependencies,
  { companyById, userById }: Lookups,
  notifier: Notifier,
) {
  return {
    async beginTotpEnrolment(request) {
      const input = parseStorableRequest(beginTotpEnrolmentRequest, request);
      const company = await companyById(input.companyId);
      const row = await userById(input.companyId, input.userId);
      const secret = newTotpSecret();
      await store.setPendingTotp(row.companyId, row.id, secrets.seal(secret));
      return { otpauthUri: totpUri(secret, company.name, labelOf(row)), secret };
    },

    async confirmTotpEnrolment(request) {
      const input = parseStorableRequest(confirmTotpEnrolmentRequest, request);
      const row = await userById(input.companyId, input.userId);
      if (row.totpPendingSecret === null) return { enrolled: false };
      metrics.secretsCompared.inc({ kind: "totp" });
      const step = await totpStepOf(secrets.open(row.totpPendingSecret), input.code);
      if (step === undefined) return { enrolled: false };
      // Not after the gateway has answered 503: the user was told nothing changed.
      assertTimeLeft();
      const enrolled = await store.confirmTotp(row.companyId, row.id, row.totpPendingSecret, step);
      if (enrolled) notifier.notify(row.companyId, row.id, NotificationEvent.AUTHENTICATOR_APP_ADDED);
      return { enrolled };
    },

    async verifyTotp(request) {
      const input = parseStorableRequest(verifyTotpRequest, request);
      const row = await userById(input.companyId, input.userId);
      const { check, verdict } = await compareUnderBudget(
        session,
        {
          companyId: input.companyId,
          subject: { userId: input.userId },
          kind: SecretKind.OTP,
          clientAddress: input.clientAddress,
        },
        async () => {
          metrics.secretsCompared.inc({ kind: "totp" });
          if (row.totpSecret === null) return { valid: false };
          const step = await totpStepOf(secrets.open(row.totpSecret), input.code);
          return { valid: step !== undefined && (await store.useTotpStep(row.companyId, row.id, step)) };
        },
      );
      return { valid: verdict?.valid ?? false, check };
    },

    async removeTotp(request) {
      const input = parseStorableRequest(removeTotpRequest, request);
      const removed = await store.removeTotp(input.companyId, input.userId);
      // A factor changed: the user's sessions end (docs/security.md, "What ends a session").
      if (removed) {
        await session.revokeUserSessions({ companyId: input.companyId, userId: input.userId });
        notifier.notify(input.companyId, input.userId, NotificationEvent.AUTHENTICATOR_APP_REMOVED);
      }
      return { removed };
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
