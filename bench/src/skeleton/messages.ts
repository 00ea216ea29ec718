import { randomUUID } from "node:crypto";
import { defaultCompanyLimits } from "@auth/grpc-kit";
import {
  DisclaimerServiceService,
  ListRequiredDisclaimersRequest,
  ListRequiredDisclaimersResponse,
} from "@auth/proto/disclaimer";
import {
  FindUserRequest,
  FindUserResponse,
  IdentityServiceService,
  User,
  UserStatus,
  VerifyCredentialsRequest,
  VerifyCredentialsResponse,
  VerifyPasswordRequest,
  VerifyPasswordResponse,
} from "@auth/proto/identity";
import {
  AdvanceSessionRequest,
  AdvanceSessionResponse,
  CheckOutcome,
  CreateSessionRequest,
  CreateSessionResponse,
  IntrospectSessionRequest,
  IntrospectSessionResponse,
  ReserveSecretCheckRequest,
  ReserveSecretCheckResponse,
  Session,
  SessionServiceService,
  SessionState,
  TokenStatus,
} from "@auth/proto/session";

/** A message of the product's contract: its defaults, with these fields set. */
const filled = <T>(type: { fromJSON(object: unknown): T }, fields: Partial<T>): T => ({
  ...type.fromJSON({}),
  ...fields,
});

/** What the gateway knows when it makes a call: the HTTP request's login ID, password and token. */
export interface CallInput {
  loginId: string;
  password: string;
  sessionToken: string;
}

const companyId = randomUUID();
const userId = randomUUID();
const sessionToken = "s".repeat(43);
const now = new Date();
const user = filled(User, {
  id: userId,
  companyId,
  role: "customer",
  status: UserStatus.ACTIVE,
  profileMnemocode: "B-skeleton",
  loginName: "password-skeleton-0",
  phone: "+12122000000",
  hasPassword: true,
  passwordChangeRequired: false,
});
const session = (state: SessionState) =>
  filled(Session, {
    sessionId: randomUUID(),
    companyId,
    userId,
    state,
    loginId: user.loginName,
    createdAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    lastSeenAt: now,
    userAgent: "autocannon",
    clientAddress: "127.0.0.1",
  });
const allowed = filled(ReserveSecretCheckResponse, {
  outcome: CheckOutcome.ALLOWED,
  checkId: randomUUID(),
  credentialGeneration: "1",
});

/**
 * Each method the skeleton calls: the service that serves it, its definition (the product's
 * contract), the request the gateway sends and the fixed answer, of the product's message types.
 */
export const skeletonMethods = {
  findUser: {
    service: "identity",
    definition: IdentityServiceService.findUser,
    request: ({ loginId }: CallInput) => filled(FindUserRequest, { companyId, loginId }),
    answer: filled(FindUserResponse, { normalizedLoginId: user.loginName, user }),
  },
  verifyPassword: {
    service: "identity",
    definition: IdentityServiceService.verifyPassword,
    request: ({ password }: CallInput) =>
      filled(VerifyPasswordRequest, {
        companyId,
        userId,
        password,
        clientAddress: "127.0.0.1",
        sessionToken,
      }),
    answer: filled(VerifyPasswordResponse, {
      valid: true,
      passwordChangeRequired: false,
      user,
      check: allowed,
    }),
  },
  verifyCredentials: {
    service: "identity",
    definition: IdentityServiceService.verifyCredentials,
    request: ({ loginId, password }: CallInput) =>
      filled(VerifyCredentialsRequest, { companyId, loginId, password, clientAddress: "127.0.0.1" }),
    answer: filled(VerifyCredentialsResponse, {
      normalizedLoginId: user.loginName,
      user,
      passwordChangeRequired: false,
      check: allowed,
    }),
  },
  listRequiredDisclaimers: {
    service: "disclaimer",
    definition: DisclaimerServiceService.listRequiredDisclaimers,
    request: () => filled(ListRequiredDisclaimersRequest, { companyId, userId }),
    answer: filled(ListRequiredDisclaimersResponse, { disclaimers: [] }),
  },
  createSession: {
    service: "session",
    definition: SessionServiceService.createSession,
    request: ({ loginId }: CallInput) =>
      filled(CreateSessionRequest, {
        companyId,
        userId,
        state: SessionState.CHECKPASSWORD,
        loginId,
        credentialGeneration: "1",
        userAgent: "autocannon",
        clientAddress: "127.0.0.1",
      }),
    answer: filled(CreateSessionResponse, {
      sessionToken,
      session: session(SessionState.CHECKPASSWORD),
      captchaRequired: false,
    }),
  },
  introspectSession: {
    service: "session",
    definition: SessionServiceService.introspectSession,
    request: ({ sessionToken }: CallInput) => filled(IntrospectSessionRequest, { sessionToken }),
    answer: filled(IntrospectSessionResponse, {
      status: TokenStatus.ACTIVE,
      session: session(SessionState.CHECKPASSWORD),
    }),
  },
  reserveSecretCheck: {
    service: "session",
    definition: SessionServiceService.reserveSecretCheck,
    request: () =>
      filled(ReserveSecretCheckRequest, {
        companyId,
        sessionToken,
        limits: defaultCompanyLimits,
      }),
    answer: filled(ReserveSecretCheckResponse, allowed),
  },
  advanceSession: {
    service: "session",
    definition: SessionServiceService.advanceSession,
    request: ({ sessionToken }: CallInput) =>
      filled(AdvanceSessionRequest, {
        sessionToken,
        fromState: SessionState.CHECKPASSWORD,
        toState: SessionState.AUTHORIZED,
        renewCredentialGeneration: false,
      }),
    answer: filled(AdvanceSessionResponse, { sessionToken, session: session(SessionState.AUTHORIZED) }),
  },
} as const;

export type SkeletonMethod = keyof typeof skeletonMethods;
export type SkeletonService = (typeof skeletonMethods)[SkeletonMethod]["service"];

/** The methods whose service compares a password with argon2id before it answers, as identity does. */
export const hashingMethods: ReadonlySet<SkeletonMethod> = new Set(["verifyPassword", "verifyCredentials"]);

/** The product's definition of each service the skeleton serves. */
export const serviceDefinitions = {
  identity: IdentityServiceService,
  session: SessionServiceService,
  disclaimer: DisclaimerServiceService,
} satisfies Record<SkeletonService, object>;
