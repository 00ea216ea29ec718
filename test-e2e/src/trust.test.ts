import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditAccess } from "@auth/audit/access";
import { disclaimerAccess } from "@auth/disclaimer/access";
import {
  type AccessTable,
  type Caller,
  callers,
  companyLimits,
  type GrpcServiceName,
  type GrpcTransport,
  type ServiceDefinition,
} from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport } from "@auth/grpc-kit/dev-pki";
import { identityAccess } from "@auth/identity/access";
import { otpAccess } from "@auth/otp/access";
import { AuditServiceService } from "@auth/proto/audit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import {
  AuthenticateApiKeyRequest,
  CaptchaProvider,
  IdentityServiceService,
  SetPasswordRequest,
  VerifyPasswordRequest,
  VerifyPasswordResponse,
} from "@auth/proto/identity";
import {
  FactorKind,
  IntrospectTokenRequest,
  IntrospectTokenResponse,
  TokenIntrospectionServiceService,
  TokenStatus,
} from "@auth/proto/introspection";
import { OtpPurpose, OtpServiceService, SendOtpRequest, SmsProvider, SmsSettings } from "@auth/proto/otp";
import { RecoveryServiceService, SendRecoveryLinkRequest } from "@auth/proto/recovery";
import {
  AdvanceSessionRequest,
  CheckOutcome,
  ClaimCredentialChangeRequest,
  CreateSessionRequest,
  CreateSessionResponse,
  IntrospectSessionRequest,
  IntrospectSessionResponse,
  ListUserSessionsRequest,
  ListUserSessionsResponse,
  RecordFederatedLoginRequest,
  RecordFederatedLoginResponse,
  SecretKind,
  SessionServiceService,
  SessionState,
} from "@auth/proto/session";
import { recoveryAccess } from "@auth/recovery/access";
import { introspectionAccess, sessionAccess } from "@auth/session/access";
import { status as grpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { documentedAccess, methodNameOf } from "./support/access-matrix.js";
import { call } from "./support/api.js";
import {
  createCompany,
  createUser,
  sharedTransportOf,
  type TestCompany,
  type TestUser,
} from "./support/fixtures.js";
import { lastOtp, smsTo } from "./support/outbox.js";
import {
  type CallOutcome,
  lengthDelimitedField,
  type RawGrpcClient,
  rawGrpcClient,
} from "./support/raw-grpc.js";

/**
 * Trust between the services (docs/security.md): every RPC of every service, called as an attacker
 * inside the network would, on the shared suite's real ports, with every certificate. The matrix of
 * docs/security.md says what each call must meet, and must equal the access tables, so that what a
 * thief of a certificate could do is what the document says, and a new RPC is covered by the row it
 * needs to boot.
 */
interface Hosted {
  name: string;
  definition: ServiceDefinition;
  table: AccessTable<ServiceDefinition>;
  process: GrpcServiceName;
  address: () => string;
}

const addressOf = (name: GrpcServiceName) => () => {
  const provided = {
    identity: "identityAddress",
    session: "sessionAddress",
    disclaimer: "disclaimerAddress",
    otp: "otpAddress",
    recovery: "recoveryAddress",
    audit: "auditAddress",
  } as const;
  return inject(provided[name]);
};

const hosted: Hosted[] = [
  {
    name: "IdentityService",
    definition: IdentityServiceService,
    table: identityAccess,
    process: "identity",
    address: addressOf("identity"),
  },
  {
    name: "SessionService",
    definition: SessionServiceService,
    table: sessionAccess,
    process: "session",
    address: addressOf("session"),
  },
  {
    name: "TokenIntrospectionService",
    definition: TokenIntrospectionServiceService,
    table: introspectionAccess,
    process: "session",
    address: addressOf("session"),
  },
  {
    name: "OtpService",
    definition: OtpServiceService,
    table: otpAccess,
    process: "otp",
    address: addressOf("otp"),
  },
  {
    name: "RecoveryService",
    definition: RecoveryServiceService,
    table: recoveryAccess,
    process: "recovery",
    address: addressOf("recovery"),
  },
  {
    name: "DisclaimerService",
    definition: DisclaimerServiceService,
    table: disclaimerAccess,
    process: "disclaimer",
    address: addressOf("disclaimer"),
  },
  {
    name: "AuditService",
    definition: AuditServiceService,
    table: auditAccess,
    process: "audit",
    address: addressOf("audit"),
  },
] as Hosted[];

/** The certificate each caller presents; disclaimer, which calls no service, names no caller at all. */
const certificateOf: Record<Caller | "a service of the suite", string> = {
  gateway: "gateway",
  identity: "identity",
  session: "session",
  otp: "otp",
  recovery: "recovery",
  audit: "audit",
  operator: "operator",
  consumer: "consumer/e2e",
  "a service of the suite": "disclaimer",
};

const documented = documentedAccess();
/** The certificates docs/security.md's matrix lets call a method. */
const documentedCallers = (path: string): readonly string[] => [
  ...(documented.get(methodNameOf(path)) ?? []),
];

describe("docs/security.md's matrix of who may call what", () => {
  it("is the access tables, method by method: every method is in it once, with the callers its table names", () => {
    const fromTables = hosted.flatMap((service) =>
      Object.entries(service.definition).map(
        ([name, method]) =>
          [methodNameOf(method.path), [...(service.table[name] as readonly string[])].sort()] as const,
      ),
    );
    expect(
      Object.fromEntries([...documented].map(([method, callers]) => [method, [...callers].sort()])),
    ).toEqual(Object.fromEntries(fromTables));
  });
});

/** The answers that show the caller got past authentication and authorization, to the handler. */
const refusals = new Set(["service.unavailable", "caller.forbidden", "admin.unauthenticated"]);

let stranger: GrpcTransport;
const clients: RawGrpcClient[] = [];
const client = (service: Hosted, transport: GrpcTransport) => {
  const made = rawGrpcClient(service.address(), transport, service.process);
  clients.push(made);
  return made;
};

beforeAll(async () => {
  // A certificate with the gateway's very name, from a CA of the attacker's own.
  const files = await ensureDevPki(join(mkdtempSync(join(tmpdir(), "stranger-ca-")), "pki"), ["gateway"]);
  stranger = mtlsTransport(files.gateway as NonNullable<(typeof files)["gateway"]>);
});
afterAll(() => {
  for (const made of clients) made.close();
});

describe.each(hosted)("every method of $name", (service) => {
  const methods = Object.entries(service.definition);

  it("refuses a caller without a certificate, and one whose certificate another CA signed", async () => {
    const plain = client(service, { kind: "plaintext" });
    const foreign = client(service, stranger);
    for (const [name, method] of methods) {
      expect((await plain.call(method.path)).code, `${name} in plain text`).toBe("service.unavailable");
      expect((await foreign.call(method.path)).code, `${name} from another CA`).toBe("service.unavailable");
    }
  });

  it("refuses every caller the matrix does not mark with caller.forbidden", async () => {
    const adminToken = inject("adminToken");
    for (const [who, holder] of Object.entries(certificateOf)) {
      const caller = client(service, sharedTransportOf(holder));
      for (const [name, method] of methods) {
        if (documentedCallers(method.path).includes(who)) continue;
        // With the admin token too: it opens nothing to the wrong certificate.
        expect((await caller.call(method.path, Buffer.alloc(0), adminToken)).code, `${name} by ${who}`).toBe(
          "caller.forbidden",
        );
      }
    }
  });

  it("lets each caller the matrix marks reach the handler (operators with the admin token)", async () => {
    for (const [name, method] of methods) {
      for (const who of documentedCallers(method.path) as readonly Caller[]) {
        const caller = client(service, sharedTransportOf(certificateOf[who]));
        const outcome = await caller.call(
          method.path,
          Buffer.alloc(0),
          who === "operator" ? inject("adminToken") : undefined,
        );
        expect(refusals.has(outcome.code), `${name} by ${who}: ${outcome.code}`).toBe(false);
        if (who === "operator")
          expect((await caller.call(method.path)).code, `${name} without the admin token`).toBe(
            "admin.unauthenticated",
          );
      }
    }
  });
});

describe("the callers named in the access tables", () => {
  it("are all known callers, and token consumers may call the read-only introspection alone", () => {
    for (const service of hosted) {
      for (const [name, allowed] of Object.entries(service.table)) {
        for (const caller of allowed) expect(callers).toContain(caller);
        if (allowed.includes("consumer"))
          expect(`${service.name}/${name}`).toBe("TokenIntrospectionService/introspectToken");
      }
    }
  });
});

describe("the reproductions of the review, each now failing to take the account", () => {
  let company: TestCompany;
  let victim: TestUser;
  let attackerSms: Server;
  const smsReceived: string[] = [];
  const sessionService = hosted[1] as Hosted;
  const identityService = hosted[0] as Hosted;
  const as = (service: Hosted, holder: string) => client(service, sharedTransportOf(holder));
  const pathOf = (service: Hosted, method: string) => (service.definition[method] as { path: string }).path;

  beforeAll(async () => {
    attackerSms = createServer(async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      smsReceived.push(body);
      response.writeHead(202).end();
    });
    await new Promise<void>((resolve) => attackerSms.listen(0, "127.0.0.1", resolve));
    // SMS and e-mail through the deployment's dev outboxes, where a test can read what went out.
    company = await createCompany({
      recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: "https://app.example.com/recover" },
    });
    victim = await createUser(company);
  });
  afterAll(async () => {
    attackerSms.closeAllConnections();
    await new Promise((resolve) => attackerSms.close(resolve));
  });

  it("CreateSession for the victim, in state authorized for 30 days, is refused to anyone but the gateway", async () => {
    const request = Buffer.from(
      CreateSessionRequest.encode({
        passkeyDiscovery: false,
        deviceId: "",
        companyId: company.id,
        userId: victim.id,
        state: SessionState.AUTHORIZED,
        loginId: victim.loginName,
        passwordChangeRequired: false,
        lifetimeSeconds: 2_592_000,
        // No lock-out asked for either.
        lockoutKind: SecretKind.UNSPECIFIED,
        disclaimersRequired: [],
        userAgent: "",
        clientAddress: "",
        limits: companyLimits(company.policy),
      }).finish(),
    );
    for (const holder of ["consumer/e2e", "otp", "recovery", "operator", "identity"]) {
      expect(
        (await as(sessionService, holder).call(pathOf(sessionService, "createSession"), request)).code,
        holder,
      ).toBe("caller.forbidden");
    }
    expect(
      (
        await client(sessionService, { kind: "plaintext" }).call(
          pathOf(sessionService, "createSession"),
          request,
        )
      ).code,
    ).toBe("service.unavailable");
  });

  it("RecordFederatedLogin, which would give a session of the victim a provider's multi-factor login as its factor, is identity's alone", async () => {
    expect(sessionAccess.recordFederatedLogin).toEqual(["identity"]);
    const path = pathOf(sessionService, "recordFederatedLogin");
    const request = Buffer.from(
      RecordFederatedLoginRequest.encode({
        companyId: company.id,
        userId: victim.id,
        authenticatedAt: new Date(),
        multiFactor: true,
      }).finish(),
    );
    for (const holder of [
      "gateway",
      "consumer/e2e",
      "consumer/billing",
      "otp",
      "recovery",
      "operator",
      "disclaimer",
    ]) {
      // The operator with the admin token too: it opens nothing here.
      expect((await as(sessionService, holder).call(path, request, inject("adminToken"))).code, holder).toBe(
        "caller.forbidden",
      );
    }
    expect((await client(sessionService, { kind: "plaintext" }).call(path, request)).code).toBe(
      "service.unavailable",
    );
    // Identity, whose ExchangeOAuthCode records the logins a provider verified, reaches it; the
    // login it records starts a session of that user alone.
    const recorded = await as(sessionService, "identity").call(path, request);
    if (!("response" in recorded)) throw new Error(`RecordFederatedLogin answered ${recorded.code}`);
    const { checkId } = RecordFederatedLoginResponse.decode(recorded.response);
    expect(checkId).not.toBe("");
    const other = await createUser(company);
    const ofAnother = Buffer.from(
      CreateSessionRequest.encode({
        passkeyDiscovery: false,
        deviceId: "",
        companyId: company.id,
        userId: other.id,
        state: SessionState.AUTHORIZED,
        loginId: other.loginName,
        passwordChangeRequired: false,
        lockoutKind: SecretKind.UNSPECIFIED,
        disclaimersRequired: [],
        rightCheckId: checkId,
        userAgent: "",
        clientAddress: "",
        limits: companyLimits(company.policy),
      }).finish(),
    );
    expect(
      (await as(sessionService, "gateway").call(pathOf(sessionService, "createSession"), ofAnother)).code,
    ).toBe("auth.token.invalid");
  });

  it("VerifyPassword, even to the gateway's certificate, compares no more passwords than the user's budget has", async () => {
    const target = await createUser(company);
    const verify = async (password: string) => {
      const request = VerifyPasswordRequest.encode({
        companyId: company.id,
        userId: target.id,
        password,
        clientAddress: "192.0.2.66",
      }).finish();
      const outcome = await as(identityService, "gateway").call(
        pathOf(identityService, "verifyPassword"),
        Buffer.from(request),
      );
      if (!("response" in outcome)) throw new Error(`VerifyPassword answered ${outcome.code}`);
      return VerifyPasswordResponse.decode(outcome.response);
    };
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, index) => verify(`guess-${index}`)));
    const compared = guesses.filter((answer) => answer.check?.outcome === CheckOutcome.ALLOWED);
    expect(compared.length).toBe(company.policy.captchaAfterFailures);
    expect(guesses.every((answer) => !answer.valid)).toBe(true);
    // The right password, without the captcha the budget now asks for, is not compared.
    const right = await verify(target.password ?? "");
    expect(right).toMatchObject({ valid: false, check: { outcome: CheckOutcome.CAPTCHA_MISSING } });
  });

  it("SetPassword, VerifyPassword, the check budget and AcceptDisclaimers are no product's, nor otp's or recovery's", async () => {
    const attempts: Array<[Hosted, string]> = [
      [identityService, "setPassword"],
      [identityService, "verifyPassword"],
      [sessionService, "reserveSecretCheck"],
      [sessionService, "reportSecretCheck"],
      [sessionService, "forgetFailedChecks"],
      [hosted[5] as Hosted, "acceptDisclaimers"],
    ];
    for (const [service, method] of attempts) {
      for (const holder of ["consumer/e2e", "consumer/billing", "otp", "recovery", "operator"]) {
        expect((await as(service, holder).call(pathOf(service, method))).code, `${method} by ${holder}`).toBe(
          "caller.forbidden",
        );
      }
    }
  });

  it("SendRecoveryLink mails the address identity has, whatever address the request carries", async () => {
    const recovery = hosted[4] as Hosted;
    const request = Buffer.concat([
      SendRecoveryLinkRequest.encode({
        companyId: company.id,
        userId: victim.id,
        loginId: victim.loginName,
        language: "",
      }).finish(),
      // Field 4 was `email`: the contract has no such field any more, and recovery never reads it.
      lengthDelimitedField(4, "attacker@evil.example"),
    ]);
    const outcome: CallOutcome = await as(recovery, "gateway").call(
      pathOf(recovery, "sendRecoveryLink"),
      request,
    );
    expect(outcome.code).toBe("ok");
    const mails = readFileSync(inject("mailOutboxFile"), "utf8");
    expect(mails).not.toContain("attacker@evil.example");
    expect(mails).toContain(victim.email);
  });

  it("SendOtp sends through the company's provider to the user's phone, whatever provider the request names", async () => {
    const otp = hosted[3] as Hosted;
    const smsOfTheAttacker = SmsSettings.encode({
      provider: SmsProvider.HTTP,
      url: `http://127.0.0.1:${(attackerSms.address() as AddressInfo).port}/steal`,
      token: "",
      account: "",
      sender: "",
      region: "",
    }).finish();
    const request = Buffer.concat([
      SendOtpRequest.encode({
        companyId: company.id,
        userId: victim.id,
        sessionId: "s-1",
        purpose: OtpPurpose.LOGIN,
        language: "",
      }).finish(),
      // Fields 4 and 6 were `phone` and `sms`.
      lengthDelimitedField(4, "+12025550000"),
      lengthDelimitedField(6, smsOfTheAttacker),
    ]);
    expect((await as(otp, "gateway").call(pathOf(otp, "sendOtp"), request)).code).toBe("ok");
    expect(smsReceived).toEqual([]);
    expect(smsTo(company.id, "+12025550000")).toEqual([]);
    expect(lastOtp(company.id, victim.phone)).toMatch(/^\d{6}$/);
  });

  it("AuthenticateApiKey answers the company without its captcha secret, SMS token or SMTP password", async () => {
    const secretive = await createCompany({
      captcha: { provider: CaptchaProvider.TURNSTILE, secret: "captcha-secret-of-the-company" },
      sms: {
        provider: SmsProvider.HTTP,
        url: "https://sms.example/send",
        token: "sms-token-of-the-company",
        account: "",
        sender: "",
        region: "",
      },
      mail: {
        smtpUrl: "smtps://mailer:smtp-password-of-the-company@mail.example:465",
        from: "a@example.com",
      },
    });
    const request = Buffer.from(
      AuthenticateApiKeyRequest.encode({ companyCode: secretive.code, apiKey: secretive.apiKey }).finish(),
    );
    const outcome = await as(identityService, "gateway").call(
      pathOf(identityService, "authenticateApiKey"),
      request,
    );
    expect(outcome.code).toBe("ok");
    const answer = "response" in outcome ? outcome.response.toString("latin1") : "";
    expect(answer).toContain(secretive.code);
    for (const secret of [
      "captcha-secret-of-the-company",
      "sms-token-of-the-company",
      "smtp-password-of-the-company",
    ])
      expect(answer).not.toContain(secret);
  });

  it("introspection tells a consumer that a token past only the login ID step is not authorized, and an authorized one whose it is", async () => {
    const introspection = hosted[2] as Hosted;
    const consumer = as(introspection, "consumer/billing");
    const introspect = async (sessionToken: string) => {
      const outcome = await consumer.call(
        pathOf(introspection, "introspectToken"),
        Buffer.from(IntrospectTokenRequest.encode({ sessionToken }).finish()),
      );
      if (!("response" in outcome)) throw new Error(outcome.code);
      return IntrospectTokenResponse.decode(outcome.response);
    };
    const started = await call(company.code, "login", {
      apiKey: company.apiKey,
      body: { login_id: victim.loginName },
    });
    const token = String(started.body.session_token);
    expect(await introspect(token)).toEqual({ status: TokenStatus.NOT_AUTHORIZED });
    const sent = Date.now();
    const authorized = await call(company.code, "checkpassword", {
      apiKey: company.apiKey,
      token,
      body: { password: victim.password },
    });
    const answered = Date.now();
    const answer = await introspect(String(authorized.body.session_token));
    expect(answer.status).toBe(TokenStatus.ACTIVE);
    expect(answer.session).toMatchObject({
      companyId: company.id,
      userId: victim.id,
      profileMnemocode: victim.profileMnemocode,
    });
    // How it was authenticated (docs/api-contract.md, "Assurance"): the password alone, level 1,
    // at the moment its check was made.
    const authentication = answer.session?.authentication;
    expect(authentication).toMatchObject({
      level: 1,
      amr: ["pwd"],
      factors: [{ kind: FactorKind.PASSWORD, amr: "pwd", multiFactor: false }],
    });
    const passedAt = authentication?.factors[0]?.authenticatedAt?.getTime() ?? 0;
    expect(passedAt).toBeGreaterThanOrEqual(sent);
    expect(passedAt).toBeLessThanOrEqual(answered);
    expect(authentication?.authenticatedAt?.getTime()).toBe(passedAt);
    // Its deadlines too (docs/security.md, "Session lifetimes"); never the client's user agent or address.
    expect(Object.keys(answer.session ?? {}).sort()).toEqual([
      "absoluteExpiresAt",
      "authentication",
      "companyId",
      "createdAt",
      "expiresAt",
      "idleExpiresAt",
      "profileMnemocode",
      "sessionId",
      "userId",
    ]);
    expect(await introspect("no-such-token")).toEqual({ status: TokenStatus.INVALID });
    // The gateway's own introspection, which answers every state, stays closed to consumers.
    expect(
      (await as(sessionService, "consumer/billing").call(pathOf(sessionService, "introspectSession"))).code,
    ).toBe("caller.forbidden");
  });

  it("introspection tells a consumer how a session was authenticated: a password then an SMS code is level 2, amr pwd, sms and mfa, each factor with its time", async () => {
    const introspection = hosted[2] as Hosted;
    const consumer = as(introspection, "consumer/e2e");
    const introspect = async (sessionToken: string) => {
      const outcome = await consumer.call(
        pathOf(introspection, "introspectToken"),
        Buffer.from(IntrospectTokenRequest.encode({ sessionToken }).finish()),
      );
      if (!("response" in outcome)) throw new Error(outcome.code);
      return IntrospectTokenResponse.decode(outcome.response);
    };
    const user = await createUser(company, { secondFactorRequired: true });
    const post = (operation: string, body: Record<string, unknown>, token?: string) =>
      call(company.code, operation, { apiKey: company.apiKey, body, token });
    const beforePassword = Date.now();
    const atOtp = await post("checkcredentials", { login_id: user.loginName, password: user.password });
    expect(atOtp.body.session_state, JSON.stringify(atOtp.body)).toBe("checkotp");
    // Half a login tells a consumer nothing.
    expect(await introspect(String(atOtp.body.session_token))).toEqual({
      status: TokenStatus.NOT_AUTHORIZED,
    });
    const beforeCode = Date.now();
    const authorized = await post(
      "checkotp",
      { otp: lastOtp(company.id, user.phone) },
      String(atOtp.body.session_token),
    );
    const answered = Date.now();
    expect(authorized.body.session_state, JSON.stringify(authorized.body)).toBe("authorized");
    const answer = await introspect(String(authorized.body.session_token));
    expect(answer.status).toBe(TokenStatus.ACTIVE);
    const authentication = answer.session?.authentication;
    expect(authentication).toMatchObject({
      level: 2,
      amr: ["pwd", "sms", "mfa"],
      factors: [
        { kind: FactorKind.PASSWORD, amr: "pwd", multiFactor: false },
        { kind: FactorKind.SMS_CODE, amr: "sms", multiFactor: false },
      ],
    });
    const [password, code] = (authentication?.factors ?? []).map(
      (factor) => factor.authenticatedAt?.getTime() ?? 0,
    );
    expect(password).toBeGreaterThanOrEqual(beforePassword);
    expect(password).toBeLessThanOrEqual(beforeCode);
    expect(code).toBeGreaterThanOrEqual(beforeCode);
    expect(code).toBeLessThanOrEqual(answered);
    // The time of the latest factor.
    expect(authentication?.authenticatedAt?.getTime()).toBe(code);
  });

  it("server reflection is off", async () => {
    for (const service of hosted) {
      const outcome = await as(service, "gateway").call(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      );
      expect("grpcStatus" in outcome && outcome.grpcStatus, service.name).toBe(grpcStatus.UNIMPLEMENTED);
    }
  });
});

describe('a session minted with the gateway\'s certificate needs a right check (docs/security.md, "Trust between the services")', () => {
  let company: TestCompany;
  let victim: TestUser;
  const sessionService = hosted[1] as Hosted;
  const identityService = hosted[0] as Hosted;
  const pathOf = (service: Hosted, method: string) => (service.definition[method] as { path: string }).path;
  /** What the gateway's certificate gets from a method of a service: its answer, or the error code. */
  const asGateway = async (service: Hosted, method: string, request: Uint8Array) =>
    client(service, sharedTransportOf("gateway")).call(pathOf(service, method), Buffer.from(request));
  const answerOf = (outcome: CallOutcome): Buffer => {
    if (!("response" in outcome)) throw new Error(`answered ${outcome.code}`);
    return outcome.response;
  };
  /** The victim's sessions, as an operator lists them. */
  const sessionsOfVictim = async () => {
    const outcome = await client(sessionService, sharedTransportOf("operator")).call(
      pathOf(sessionService, "listUserSessions"),
      Buffer.from(ListUserSessionsRequest.encode({ companyId: company.id, userId: victim.id }).finish()),
      inject("adminToken"),
    );
    return ListUserSessionsResponse.decode(answerOf(outcome)).sessions.length;
  };
  const newSession = (state: SessionState, lifetimeSeconds?: number) =>
    CreateSessionRequest.encode({
      passkeyDiscovery: false,
      deviceId: "",
      companyId: company.id,
      userId: victim.id,
      state,
      loginId: victim.loginName,
      passwordChangeRequired: false,
      lifetimeSeconds,
      lockoutKind: SecretKind.UNSPECIFIED,
      disclaimersRequired: [],
      userAgent: "",
      clientAddress: "",
      limits: companyLimits(company.policy),
    }).finish();
  /** Whether a password logs the user in through the gateway's API (a new session each time). */
  const logsIn = async (user: TestUser, password: string) => {
    const answer = await call(company.code, "checkcredentials", {
      apiKey: company.apiKey,
      body: { login_id: user.loginName, password },
    });
    return answer.status === 200;
  };

  beforeAll(async () => {
    company = await createCompany();
    victim = await createUser(company);
  });

  it("CreateSession in state authorized (or setpassword) for the victim, without a right check, is refused with auth.session.invalid: no session is created", async () => {
    const before = await sessionsOfVictim();
    for (const state of [SessionState.AUTHORIZED, SessionState.SETPASSWORD]) {
      const outcome = await asGateway(sessionService, "createSession", newSession(state, 2_592_000));
      expect(outcome.code, String(state)).toBe("auth.session.invalid");
      expect("grpcStatus" in outcome && outcome.grpcStatus).toBe(grpcStatus.FAILED_PRECONDITION);
    }
    expect(await sessionsOfVictim()).toBe(before);
  });

  it("AdvanceSession to authorized of a session with no factor is refused with auth.session.invalid: the session stays where it was", async () => {
    const created = CreateSessionResponse.decode(
      answerOf(await asGateway(sessionService, "createSession", newSession(SessionState.CHECKOTP))),
    );
    const advance = AdvanceSessionRequest.encode({
      sessionToken: created.sessionToken,
      fromState: SessionState.CHECKOTP,
      toState: SessionState.AUTHORIZED,
      renewCredentialGeneration: false,
      limits: companyLimits(company.policy),
    }).finish();
    expect((await asGateway(sessionService, "advanceSession", advance)).code).toBe("auth.session.invalid");
    const found = IntrospectSessionResponse.decode(
      answerOf(
        await asGateway(
          sessionService,
          "introspectSession",
          IntrospectSessionRequest.encode({ sessionToken: created.sessionToken }).finish(),
        ),
      ),
    );
    expect(found.session).toMatchObject({ state: SessionState.CHECKOTP, authentication: { level: 0 } });
  });

  it("SetPassword for the victim, with no session claimed for the victim's change, is refused with auth.token.invalid: nothing is written", async () => {
    const newPassword = "the attacker's own passphrase 31";
    const setPassword = (sessionToken?: string) =>
      SetPasswordRequest.encode({
        companyId: company.id,
        userId: victim.id,
        newPassword,
        validateOnly: false,
        sessionToken,
      }).finish();
    expect((await asGateway(identityService, "setPassword", setPassword())).code).toBe("auth.token.invalid");
    // A session of the attacker's own user, claimed for its own change, is not the victim's.
    const attacker = await createUser(company, { passwordChangeRequired: true });
    const atSetPassword = await call(company.code, "checkcredentials", {
      apiKey: company.apiKey,
      body: { login_id: attacker.loginName, password: attacker.password },
    });
    expect(atSetPassword.body.session_state).toBe("setpassword");
    const attackersToken = String(atSetPassword.body.session_token);
    const claim = ClaimCredentialChangeRequest.encode({ sessionToken: attackersToken }).finish();
    expect((await asGateway(sessionService, "claimCredentialChange", claim)).code).toBe("ok");
    expect((await asGateway(identityService, "setPassword", setPassword(attackersToken))).code).toBe(
      "auth.token.invalid",
    );
    expect(await logsIn(victim, newPassword)).toBe(false);
    expect(await logsIn(victim, victim.password ?? "")).toBe(true);
  });
});
