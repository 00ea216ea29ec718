import { AuthError } from "@auth/errors";
import {
  type AsyncService,
  assertTimeLeft,
  companyLimits,
  compareUnderBudget,
  eventOriginOf,
} from "@auth/grpc-kit";
import { Factor } from "@auth/proto/events";
import {
  type IdentityServiceService,
  NotificationEvent,
  type Passkey,
  type PasskeySettings,
} from "@auth/proto/identity";
import {
  CheckOutcome,
  CheckResult,
  PasskeyCeremony,
  type PasskeySession,
  SecretKind,
  SessionState,
} from "@auth/proto/session";
import { metrics } from "@auth/telemetry";
import { isOperatorCall } from "../access.js";
import { failureOf } from "../events.js";
import type { Notifier } from "../notifications/notifier.js";
import {
  assertionOptions,
  parseAssertion,
  parseAttestation,
  registrationOptions,
  verifyAssertion,
  verifyAttestation,
} from "../passkeys/ceremonies.js";
import { relyingPartyOf } from "../passkeys/relying-party.js";
import {
  beginPasskeyLoginRequest,
  beginPasskeyRegistrationRequest,
  finishPasskeyRegistrationRequest,
  listPasskeysRequest,
  removePasskeyRequest,
  renamePasskeyRequest,
  verifyPasskeyRequest,
} from "../requests.js";
import type { CompanyRow, PasskeyRow } from "../schema.js";
import type { IdentityDependencies } from "../server.js";
import { parseStorableRequest } from "../text-fields.js";
import { labelOf, toUser } from "../users.js";
import { backupCodeIssuing } from "./backup-code-issuing.js";
import type { Lookups } from "./lookups.js";

/** A passkey as the user and operators see it: never its public key. */
function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    transports: row.transports,
    backedUp: row.backedUp,
    userVerified: row.userVerified,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt ?? undefined,
    cloneSuspected: row.cloneSuspected,
  };
}

/** The company's relying party; passkeys are off without one (docs/decisions.md, "Passkeys"). */
function requireRelyingParty(company: CompanyRow): PasskeySettings {
  const relyingParty = relyingPartyOf(company.policy);
  if (!relyingParty)
    throw new AuthError("auth.passkey.invalid", { detail: "passkeys are off for the company" });
  return relyingParty;
}

/** The session a challenge is bound to, which must be of the request's company. */
function sessionOf(companyId: string, session: PasskeySession | undefined): PasskeySession {
  if (!session || session.companyId !== companyId)
    throw new AuthError("auth.token.invalid", { detail: "the token is of no session of the company" });
  return session;
}

/**
 * Passkeys (WebAuthn, docs/decisions.md "Passkeys"): the login's assertion, checked under the
 * user's budget of passkeys; the enrolment through the user's authorized session; and the user's
 * and operators' management of them. The challenge and the session's user are the session
 * service's: no caller names whose passkey is checked or added.
 */
export function passkeyHandlers(
  dependencies: IdentityDependencies,
  { companyById, userById }: Lookups,
  notifier: Notifier,
) {
  const { store, session, adminTokenSha256 } = dependencies;
  const backupCodes = backupCodeIssuing(dependencies, notifier);

  /** The user's passkeys a login may assert: those not suspected of being clones. */
  const usableOf = async (companyId: string, userId: string) =>
    (await store.passkeys.listOfUser(companyId, userId)).filter((passkey) => !passkey.cloneSuspected);

  /** A check of an assertion, under the user's budget of passkeys, in the session it is made in. */
  const assertionGuessOf = (company: CompanyRow, input: { sessionToken: string }, userId: string) => ({
    companyId: company.id,
    subject: { userId },
    kind: SecretKind.PASSKEY,
    limits: companyLimits(company.policy),
    sessionToken: input.sessionToken,
  });

  return {
    async beginPasskeyLogin(request) {
      const input = parseStorableRequest(beginPasskeyLoginRequest, request);
      const company = await companyById(input.companyId);
      const relyingParty = relyingPartyOf(company.policy);
      if (!relyingParty) return {};
      const issued = await session.issuePasskeyChallenge({
        sessionToken: input.sessionToken,
        ceremony: PasskeyCeremony.LOGIN,
      });
      const { userId, state } = sessionOf(company.id, issued.session);
      const inCheckPassword = state === SessionState.CHECKPASSWORD;
      if (userId === "") {
        // A password-free login's session: the browser offers its discoverable credentials, and
        // only a user-verified one may find the user.
        if (!relyingParty.allowPasswordless) return {};
        return { optionsJson: await assertionOptions(relyingParty, issued.challenge, [], "required") };
      }
      const user = toUser(await userById(company.id, userId), company.policy);
      if (inCheckPassword && !user.authenticators?.passkeyReplacesPassword) return {};
      const usable = await usableOf(company.id, userId);
      if (usable.length === 0) return {};
      return {
        optionsJson: await assertionOptions(
          relyingParty,
          issued.challenge,
          usable,
          inCheckPassword ? "required" : "preferred",
        ),
      };
    },

    async verifyPasskey(request, context) {
      const input = parseStorableRequest(verifyPasskeyRequest, request);
      const assertion = parseAssertion(input.responseJson);
      const company = await companyById(input.companyId);
      const refused = { valid: false, userVerified: false };
      const relyingParty = relyingPartyOf(company.policy);
      if (!relyingParty) return refused;
      const taken = await session.takePasskeyChallenge({
        sessionToken: input.sessionToken,
        ceremony: PasskeyCeremony.LOGIN,
      });
      const { userId: sessionUserId, state } = sessionOf(company.id, taken.session);
      const { challenge } = taken;
      if (challenge === undefined) return refused;
      const found = await store.passkeys.findByCredentialId(company.id, assertion.id);
      const credential = found?.cloneSuspected ? undefined : found;
      /** In place of the password (and for a password-free login's session, in checkpassword too), a first factor. */
      const first = state === SessionState.CHECKPASSWORD || sessionUserId === "";
      const passkeyCheck = (userId: string | undefined) => ({
        origin: eventOriginOf(context, userId),
        companyId: company.id,
        userId,
        factor: Factor.PASSKEY,
        first,
      });
      if (sessionUserId !== "" && credential?.userId !== sessionUserId) {
        // An unknown, clone-suspect or other user's passkey presented in this user's login: a wrong
        // answer of this user's, spent as one, and nothing verified.
        const { check } = await compareUnderBudget(
          session,
          assertionGuessOf(company, input, sessionUserId),
          async () => ({ valid: false }),
        );
        await store.recordCheckFailed(passkeyCheck(sessionUserId), failureOf(check.outcome, false));
        return { ...refused, check };
      }
      if (!credential) {
        // A password-free login's unknown credential names no user whose budget it could spend: a
        // failure of the company's.
        await store.recordCheckFailed(passkeyCheck(undefined), failureOf(CheckOutcome.ALLOWED, false));
        return refused;
      }
      const userId = credential.userId;
      const verifiedCheck = { ...passkeyCheck(userId), userId, passkeyId: credential.id };
      // The budget first: nothing is verified unless the user's budget of passkeys allows it.
      const { check, verdict } = await compareUnderBudget(
        session,
        assertionGuessOf(company, input, userId),
        async () => {
          metrics.secretsCompared.inc({ kind: "passkey" });
          // As a first factor, only a user-verified passkey counts.
          const verified = await verifyAssertion(relyingParty, challenge, assertion, credential, first);
          if (!verified) return { valid: false as const };
          // The counter must grow where it is not zero, decided in one conditional update; one that
          // did not marks the credential clone-suspect, and the user is told once.
          if (await store.passkeys.recordAssertion(verifiedCheck, verified))
            return { valid: true as const, ...verified };
          if (await store.passkeys.markCloneSuspected(company.id, credential.id))
            notifier.notify(company.id, userId, NotificationEvent.PASSKEY_CLONE_SUSPECTED);
          return { valid: false as const };
        },
      );
      await store.recordCheckFailed(verifiedCheck, failureOf(check.outcome, verdict?.valid));
      if (!verdict?.valid) return { ...refused, check };
      try {
        await session.recordPasskeyProof({
          companyId: company.id,
          checkId: check.checkId,
          userVerified: verdict.userVerified,
          backedUp: verdict.backedUp,
        });
      } catch (error) {
        // Without its proof the check proves nothing: it is given back.
        await session
          .reportSecretCheck({ companyId: company.id, checkId: check.checkId, result: CheckResult.UNCHECKED })
          .catch(() => {});
        throw error;
      }
      return {
        valid: true,
        check,
        user: toUser(await userById(company.id, userId), company.policy),
        userVerified: verdict.userVerified,
      };
    },

    async beginPasskeyRegistration(request) {
      const input = parseStorableRequest(beginPasskeyRegistrationRequest, request);
      const company = await companyById(input.companyId);
      const relyingParty = requireRelyingParty(company);
      const issued = await session.issuePasskeyChallenge({
        sessionToken: input.sessionToken,
        ceremony: PasskeyCeremony.REGISTRATION,
      });
      const { userId } = sessionOf(company.id, issued.session);
      const row = await userById(company.id, userId);
      // Every passkey of the user, clone-suspects too: the authenticator makes no second one.
      const existing = await store.passkeys.listOfUser(company.id, userId);
      const optionsJson = await registrationOptions(
        relyingParty,
        issued.challenge,
        { id: row.id, name: labelOf(row), companyName: company.name },
        existing,
      );
      return { optionsJson };
    },

    async finishPasskeyRegistration(request, context) {
      const input = parseStorableRequest(finishPasskeyRegistrationRequest, request);
      const attestation = parseAttestation(input.responseJson);
      const company = await companyById(input.companyId);
      const relyingParty = requireRelyingParty(company);
      const taken = await session.takePasskeyChallenge({
        sessionToken: input.sessionToken,
        ceremony: PasskeyCeremony.REGISTRATION,
      });
      const { userId } = sessionOf(company.id, taken.session);
      const refused = { backupCodes: [], userId };
      if (taken.challenge === undefined) return refused;
      const credential = await verifyAttestation(relyingParty, taken.challenge, attestation);
      if (!credential) return refused;
      const user = await userById(company.id, userId);
      const firstSet = user.hasBackupCodes ? undefined : await backupCodes.prepare();
      // Not after the gateway has answered 503: the user was told nothing changed.
      assertTimeLeft(context.deadline);
      const origin = eventOriginOf(context, userId);
      const row = await store.passkeys.add(
        { ...credential, companyId: company.id, userId, name: input.name ?? "Passkey" },
        origin,
      );
      if (!row) return refused;
      notifier.notify(company.id, userId, NotificationEvent.PASSKEY_ADDED);
      return {
        passkey: toPasskey(row),
        userId,
        backupCodes: firstSet ? await backupCodes.giveFirst(company.id, userId, firstSet, origin) : [],
      };
    },

    async listPasskeys(request) {
      const input = parseStorableRequest(listPasskeysRequest, request);
      await userById(input.companyId, input.userId);
      const rows = await store.passkeys.listOfUser(input.companyId, input.userId);
      return { passkeys: rows.map(toPasskey) };
    },

    async renamePasskey(request, context) {
      const input = parseStorableRequest(renamePasskeyRequest, request);
      const renamed = await store.passkeys.rename(
        input.companyId,
        input.userId,
        input.passkeyId,
        input.name,
        eventOriginOf(context, input.userId),
      );
      if (renamed) notifier.notify(input.companyId, input.userId, NotificationEvent.PASSKEY_RENAMED);
      return { renamed };
    },

    async removePasskey(request, context) {
      const input = parseStorableRequest(removePasskeyRequest, request);
      const removed = await store.passkeys.remove(
        input.companyId,
        input.userId,
        input.passkeyId,
        eventOriginOf(context, input.userId),
      );
      if (removed) {
        // An operator's removal (a lost key) ends the user's sessions, as an app's does
        // (docs/security.md, "What ends a session"); the user's own goes on in the session it is made in.
        if (isOperatorCall(context, adminTokenSha256))
          await session.revokeUserSessions({ companyId: input.companyId, userId: input.userId });
        notifier.notify(input.companyId, input.userId, NotificationEvent.PASSKEY_REMOVED);
      }
      return { removed };
    },
  } satisfies Partial<AsyncService<typeof IdentityServiceService>>;
}
