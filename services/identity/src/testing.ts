import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { type MailSender, MemoryOutbox, type SmsSender, smsHttpDefaultsOf } from "@auth/delivery";
import { AuthError } from "@auth/errors";
import {
  closingAfterStop,
  grpcServerOptionsOf,
  type RunningGrpcServer,
  startGrpcServer,
} from "@auth/grpc-kit";
import { type OpenedDatabase, openDatabase } from "@auth/pg";
import {
  GetCredentialChangeResponse,
  type IntrospectSessionRequest,
  type IssuePasskeyChallengeRequest,
  PasskeyCeremony,
  type PasskeySession,
  type RecordPasskeyProofRequest,
  SessionState,
  type TakePasskeyChallengeRequest,
  TokenStatus,
} from "@auth/proto/session";
import { type Logger, TtlCache } from "@auth/runtime";
import { captchaCheck } from "./captcha/captcha-check.js";
import { configSchema } from "./config.js";
import type { SessionCalls } from "./guess-budget.js";
import { OAuthExchange } from "./oauth/exchange.js";

export {
  providerSettings,
  randomPhone,
  seedCompany,
  seedUser,
  TestOAuth2Provider,
  type TestUser,
  type UserOptions,
} from "./fixtures.testing.js";
export type { SessionCalls } from "./guess-budget.js";
export { type ImportedFormat, importedFormats, importedHashesOf } from "./imported-hashes/samples.testing.js";
/** The notices' e-mails as the notifier builds them: for the previews of test-e2e. */
export { noticeMail } from "./notifications/notice-mail.js";
export { eventNames, type KnownEvent } from "./notifications/templates.js";
export { wordingOf } from "./notifications/wording.js";

import { SecretBox } from "@auth/runtime";
import { PasswordHasher } from "./passwords.js";
import { type IdentitySchema, schema } from "./schema.js";
import { identityService } from "./server.js";
import { IdentityStore } from "./store/identity-store.js";

/** The session service's GetCredentialChange for a token of no session that may change a password. */
export const noCredentialChange = GetCredentialChangeResponse.fromJSON({});

/**
 * GetCredentialChange for a session of the user claimed for a password change, named after its
 * token: by default in setpassword after a check of the password, as a forced change is.
 */
export function claimedCredentialChange(
  sessionToken: string,
  of: { companyId: string; userId: string },
  session: Partial<Pick<GetCredentialChangeResponse, "state" | "passwordChecked">> = {},
): GetCredentialChangeResponse {
  return {
    claimed: true,
    ...of,
    state: SessionState.SETPASSWORD,
    passwordChecked: true,
    claimId: `claim-of-${sessionToken}`,
    ...session,
  };
}

/**
 * Cheaper than the production minimum (config.ts refuses it), so that a test's logins take
 * milliseconds: the rules under test do not depend on the hash's cost.
 */
const testHashing = { memoryCost: 8_192, timeCost: 1, parallelism: 1 };

/**
 * The identity service in the test's process, as start.ts builds it but over the test's own
 * database (in-memory PGlite unless given one), with the dev captcha allowed (as the suite does) and cheap hashes: a real gRPC server
 * on a free loopback port, under its access table. `env` is what the process would read (its
 * TLS_* files, ADMIN_TOKEN_SHA256); `session` is its client of the session service.
 */
export async function startIdentityForTests(options: {
  env: NodeJS.ProcessEnv;
  /** A PostgreSQL database of the test's own; in-memory PGlite when absent. */
  databaseUrl?: string;
  /** The database opened by the test, which reads it too (its event_outbox) and closes it; in place of `databaseUrl`. */
  database?: OpenedDatabase<IdentitySchema>;
  session: SessionCalls;
  logger: Logger;
  /** Where notices to users go; dropped when absent. */
  notices?: { mail?: MailSender; sms?: SmsSender };
}): Promise<RunningGrpcServer> {
  // Its senders are the outboxes given (memory ones otherwise); the variables are chosen as the
  // suite chooses them (docs/operations.md, "Message senders").
  const config = configSchema.parse({
    MAIL_SENDER: "dev",
    SMS_SENDER: "dev",
    ...options.env,
    GRPC_PORT: "0",
  });
  const database =
    options.database ??
    (await openDatabase({
      url: options.databaseUrl,
      schema,
      migrationsFolder: fileURLToPath(new URL("../drizzle", import.meta.url)),
    }));
  const server = await startGrpcServer({
    ...grpcServerOptionsOf(config),
    logger: options.logger,
    services: [
      identityService(
        {
          store: new IdentityStore(database.db),
          hasher: new PasswordHasher(testHashing),
          secrets: new SecretBox(randomBytes(32)),
          oauth: new OAuthExchange({
            allowInsecureHttp: config.OAUTH_ALLOW_INSECURE_HTTP,
            timeoutSeconds: config.OAUTH_TIMEOUT_SECONDS,
            cacheMs: 0,
          }),
          captcha: captchaCheck({
            allowDev: true,
            timeoutMs: config.CAPTCHA_TIMEOUT_MS,
            logger: options.logger,
          }),
          session: options.session,
          adminTokenSha256: config.ADMIN_TOKEN_SHA256,
          companies: new TtlCache(0),
          loginIdSubjects: new TtlCache(0),
          notices: {
            mail: options.notices?.mail ?? new MemoryOutbox(),
            sms: options.notices?.sms ?? new MemoryOutbox(),
            smtpTimeoutMs: config.SMTP_TIMEOUT_MS,
            smsHttp: smsHttpDefaultsOf(config),
          },
        },
        options.logger,
      ),
    ],
  });
  return closingAfterStop(server, async () => {
    if (!options.database) await database.close();
  });
}

/** The states a challenge of each ceremony may be issued in (session.proto, IssuePasskeyChallenge). */
const ceremonyStates: Record<PasskeyCeremony, readonly SessionState[]> = {
  [PasskeyCeremony.LOGIN]: [SessionState.CHECKPASSWORD, SessionState.CHECKOTP],
  [PasskeyCeremony.REGISTRATION]: [SessionState.AUTHORIZED],
  [PasskeyCeremony.UNSPECIFIED]: [],
  [PasskeyCeremony.UNRECOGNIZED]: [],
};

/**
 * The session service's passkey calls as identity sees them (session.proto: IssuePasskeyChallenge,
 * TakePasskeyChallenge, RecordPasskeyProof), and IntrospectSession, over sessions a test opens (`open`, `move`): one
 * challenge per session, replaced by a newer one, taken once, and only for its ceremony in the state
 * it was issued in; every proof recorded is kept. The real service's rules are tested there
 * (services/session) and with the flows (gateway/src/flow-tests).
 */
export class FakePasskeySessions {
  readonly #sessions = new Map<string, PasskeySession>();
  readonly #challenges = new Map<
    string,
    { challenge: string; ceremony: PasskeyCeremony; state: SessionState }
  >();
  readonly issued: IssuePasskeyChallengeRequest[] = [];
  readonly proofs: RecordPasskeyProofRequest[] = [];

  /** A session of the user (none: a password-free login's), in the state; its token. */
  open(companyId: string, userId: string, state: SessionState): string {
    const sessionToken = randomBytes(24).toString("base64url");
    this.#sessions.set(sessionToken, {
      sessionId: randomBytes(16).toString("hex"),
      companyId,
      userId,
      state,
    });
    return sessionToken;
  }

  /** Moves the session to another state, as a step of the login would. */
  move(sessionToken: string, state: SessionState): void {
    const session = this.#sessionOf(sessionToken);
    this.#sessions.set(sessionToken, { ...session, state });
  }

  #sessionOf(sessionToken: string): PasskeySession {
    const session = this.#sessions.get(sessionToken);
    if (!session) throw new AuthError("auth.token.invalid");
    return session;
  }

  readonly issuePasskeyChallenge = async (request: IssuePasskeyChallengeRequest) => {
    this.issued.push(request);
    const { sessionToken, ceremony } = request;
    const session = this.#sessionOf(sessionToken);
    if (!ceremonyStates[ceremony].includes(session.state)) throw new AuthError("auth.session.invalid");
    const challenge = randomBytes(32).toString("base64url");
    this.#challenges.set(sessionToken, { challenge, ceremony, state: session.state });
    return { challenge, session };
  };

  readonly takePasskeyChallenge = async ({ sessionToken, ceremony }: TakePasskeyChallengeRequest) => {
    const session = this.#sessionOf(sessionToken);
    const issued = this.#challenges.get(sessionToken);
    this.#challenges.delete(sessionToken);
    const good = issued && issued.ceremony === ceremony && issued.state === session.state;
    return { challenge: good ? issued.challenge : undefined, session };
  };

  readonly recordPasskeyProof = async (request: RecordPasskeyProofRequest) => {
    this.proofs.push(request);
    return {};
  };

  /** Whose an open session is, as IntrospectSession answers it: an unknown token is invalid. */
  readonly introspectSession = async ({ sessionToken }: IntrospectSessionRequest) => {
    const session = this.#sessions.get(sessionToken);
    if (!session) return { status: TokenStatus.INVALID };
    return {
      status: TokenStatus.ACTIVE,
      session: {
        ...session,
        loginId: "",
        passwordChangeRequired: false,
        disclaimersRequired: [],
        userAgent: "",
        clientAddress: "",
        ageSeconds: 0,
      },
    };
  };

  /** The calls, for a test's SessionCalls. */
  get calls(): Pick<
    SessionCalls,
    "issuePasskeyChallenge" | "takePasskeyChallenge" | "recordPasskeyProof" | "introspectSession"
  > {
    const { issuePasskeyChallenge, takePasskeyChallenge, recordPasskeyProof, introspectSession } = this;
    return { issuePasskeyChallenge, takePasskeyChallenge, recordPasskeyProof, introspectSession };
  }
}
