import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDisclaimerForTests } from "@auth/disclaimer/testing";
import { createServiceClient, hashAdminToken, type RunningGrpcServer, transportOf } from "@auth/grpc-kit";
import { ensureDevPki, mtlsTransport, tlsEnvironment } from "@auth/grpc-kit/dev-pki";
import {
  providerSettings,
  seedCompany,
  seedUser,
  startIdentityForTests,
  type TestUser,
  type UserOptions,
} from "@auth/identity/testing";
import { SmsOutboxForTests, startOtpForTests } from "@auth/otp/testing";
import { createTestDatabase } from "@auth/pg/testing";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import {
  type CompanyPolicy,
  IdentityServiceService,
  type OAuthProviderSettings,
  type UserStatus,
} from "@auth/proto/identity";
import type { SendOtpRequest } from "@auth/proto/otp";
import type { SendRecoveryLinkRequest } from "@auth/proto/recovery";
import { SessionServiceService } from "@auth/proto/session";
import { MailOutboxForTests, startRecoveryForTests } from "@auth/recovery/testing";
import { createLogger, freePort } from "@auth/runtime";
import { startSessionForTests } from "@auth/session/testing";
import { metrics } from "@auth/telemetry";
import type { ApiResponse } from "@auth/testing/api";
import { createApp } from "../app.js";
import { type Backends, closeBackends, connectBackends } from "../backends.js";
import { CompaniesWithDisclaimers } from "../companies-with-disclaimers.js";
import { configSchema } from "../config.js";
import { CompanyCache } from "../http/company-cache.js";
import { IdempotentAnswers } from "../http/idempotency.js";
import { LoginIdTurns } from "../http/login-id-turns.js";
import { RateLimits } from "../http/rate-limits.js";
import { backendHealth } from "../readiness.js";

/**
 * The whole suite in the test's process: the five services' real implementations over the kv
 * package's in-process store and databases of their own, each a gRPC server on a free loopback port
 * with its certificate of a private CA and its access table, and the gateway's app on a free port
 * calling them with the gateway's certificate, as the processes do; the audit service when a test
 * file starts one (InProcessSuiteOptions). Flow rules are tested here without starting a process;
 * test-e2e keeps what only the seven processes show.
 */

/** The services' time: the stores of session, OTP and recovery read it; `advance` moves it on. */
export class TestClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  advance(ms: number): void {
    this.#offsetMs += ms;
  }
}

export interface CallOptions {
  token?: string;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The X-API-Key header; none when absent. */
  apiKey?: string;
  /** POST unless given; a GET sends no body. */
  method?: "GET" | "POST";
}

/**
 * Databases of the suite's own on the PostgreSQL of TEST_DATABASE_URL when set (as CI sets it):
 * they are made in milliseconds, where opening PGlite loads its WebAssembly and an empty cluster,
 * about half a second of CPU each. In-memory PGlite without it.
 */
async function databases(withAudit: boolean): Promise<{
  identity?: string;
  disclaimer?: string;
  audit?: string;
  drop(): Promise<void>;
}> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { drop: async () => {} };
  const [identity, disclaimer, audit] = await Promise.all([
    createTestDatabase(adminUrl, "gateway_identity"),
    createTestDatabase(adminUrl, "gateway_disclaimer"),
    withAudit ? createTestDatabase(adminUrl, "gateway_audit") : undefined,
  ]);
  return {
    identity: identity.url,
    disclaimer: disclaimer.url,
    audit: audit?.url,
    drop: async () => {
      await Promise.all([identity.drop(), disclaimer.drop(), audit?.drop()]);
    },
  };
}

export interface InProcessSuiteOptions {
  /**
   * Starts the audit service with its environment (its certificate and SESSION_ADDR, the session
   * service it asks whose a token is) and a database of its own on TEST_DATABASE_URL's server
   * (undefined without it: in-memory PGlite). Without it no audit service listens at the
   * gateway's AUDIT_ADDR: auth/events answers service.unavailable, as with the service down.
   */
  audit?: (env: NodeJS.ProcessEnv, databaseUrl: string | undefined) => Promise<RunningGrpcServer>;
  /**
   * How long a list of the companies with disclaimers stands for the logins that ask the disclaimer
   * service nothing (DISCLAIMER_COMPANIES_REFRESH_SECONDS); 0 by default: every login asks.
   */
  disclaimerListRefreshMs?: number;
}

/**
 * Starts the suite: the services, then the gateway. Tests seed companies and users through the
 * operator's admin API (createCompany), post to the gateway (call), read the SMS and e-mails sent
 * (smsTo, mailTo) and move the services' clock on (clock.advance).
 */
export async function startInProcessSuite(options: InProcessSuiteOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "in-process-suite-"));
  const certificates = await ensureDevPki(join(dataDir, "pki"), [
    "identity",
    "session",
    "otp",
    "recovery",
    "disclaimer",
    "audit",
    "gateway",
    "operator",
  ]);
  const adminToken = randomBytes(32).toString("base64url");
  const logger = createLogger("in-process-suite", "silent");
  const clock = new TestClock();
  const sms = new SmsOutboxForTests();
  const mail = new MailOutboxForTests();
  // identity's notices to users (docs/security.md, "Notifications"), apart from the recovery e-mails.
  const notices = new MailOutboxForTests();
  const filesOf = (holder: string) => {
    const files = certificates[holder];
    if (!files) throw new Error(`no certificate for ${holder}`);
    return files;
  };
  // identity, session, disclaimer and audit hold the admin token's SHA-256 alone (docs/operations.md,
  // "The admin token"); the operator below presents the token.
  const comparesAdminToken = ["identity", "session", "disclaimer", "audit"];
  const envOf = (holder: string, more: NodeJS.ProcessEnv = {}) => ({
    ...tlsEnvironment(filesOf(holder)),
    ...(comparesAdminToken.includes(holder) ? { ADMIN_TOKEN_SHA256: hashAdminToken(adminToken) } : {}),
    ...more,
  });
  const servers: RunningGrpcServer[] = [];
  const started = <T extends RunningGrpcServer>(server: T) => {
    servers.push(server);
    return server;
  };
  const stores = await databases(options.audit !== undefined);
  // The session service calls no other (docs/security.md, "The limits a caller sends"): it starts
  // first, and identity starts with its client.
  const session = started(await startSessionForTests({ env: envOf("session"), clock, logger }));
  const identitysSession = createServiceClient(SessionServiceService, `127.0.0.1:${session.port}`, {
    deadlineMs: 3_000,
    transport: mtlsTransport(filesOf("identity")),
    server: "session",
  });
  const [identity, disclaimer] = await Promise.all([
    // OAuth providers of the tests listen on plain HTTP on loopback, as in test-e2e.
    startIdentityForTests({
      env: envOf("identity", { OAUTH_ALLOW_INSECURE_HTTP: "true" }),
      databaseUrl: stores.identity,
      session: identitysSession,
      logger,
      // A notice by SMS goes where the codes go: smsTo shows both.
      notices: { mail: notices, sms },
    }).then(started),
    startDisclaimerForTests({ env: envOf("disclaimer"), databaseUrl: stores.disclaimer, logger }).then(
      started,
    ),
  ]);
  const identityAddress = { IDENTITY_ADDR: `127.0.0.1:${identity.port}` };
  const [otp, recovery] = await Promise.all([
    startOtpForTests({ env: envOf("otp", identityAddress), clock, outbox: sms, logger }).then(started),
    startRecoveryForTests({ env: envOf("recovery", identityAddress), clock, outbox: mail, logger }).then(
      started,
    ),
  ]);

  const audit =
    options.audit &&
    started(await options.audit(envOf("audit", { SESSION_ADDR: `127.0.0.1:${session.port}` }), stores.audit));

  const addresses = {
    identity: `127.0.0.1:${identity.port}`,
    session: `127.0.0.1:${session.port}`,
    otp: `127.0.0.1:${otp.port}`,
    recovery: `127.0.0.1:${recovery.port}`,
    disclaimer: `127.0.0.1:${disclaimer.port}`,
    audit: `127.0.0.1:${audit?.port ?? (await freePort())}`,
  };
  const config = configSchema.parse({
    ...tlsEnvironment(filesOf("gateway")),
    IDENTITY_ADDR: addresses.identity,
    SESSION_ADDR: addresses.session,
    OTP_ADDR: addresses.otp,
    RECOVERY_ADDR: addresses.recovery,
    DISCLAIMER_ADDR: addresses.disclaimer,
    AUDIT_ADDR: addresses.audit,
  });
  const transport = transportOf(config);
  const backends = connectBackends(addresses, config, transport);
  // What the gateway asks the otp and recovery services to send, as it asks it: with the language
  // it chose for the request (docs/decisions.md, "Languages").
  const asked: { sms: SendOtpRequest[]; mail: SendRecoveryLinkRequest[] } = { sms: [], mail: [] };
  const gatewaysBackends: Backends = {
    ...backends,
    otp: {
      ...backends.otp,
      sendOtp: (request, callOptions) => {
        asked.sms.push(request);
        return backends.otp.sendOtp(request, callOptions);
      },
    },
    recovery: {
      ...backends.recovery,
      sendRecoveryLink: (request, callOptions) => {
        asked.mail.push(request);
        return backends.recovery.sendRecoveryLink(request, callOptions);
      },
    },
  };
  // Read when a test asks (readCompaniesWithDisclaimers), not on a timer.
  const companiesWithDisclaimers = new CompaniesWithDisclaimers(
    backends.disclaimer,
    options.disclaimerListRefreshMs ?? 0,
    logger,
  );
  const health = backendHealth(addresses, transport, {
    keepaliveTimeoutMs: config.GRPC_KEEPALIVE_TIMEOUT_MS,
    logger,
  });
  const app = createApp({
    answers: IdempotentAnswers.on(undefined),
    rateLimits: new RateLimits(
      {
        perAddressPerMinute: config.RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
        perLoginIdPerMinute: config.RATE_LIMIT_PER_LOGIN_ID_PER_MINUTE,
        ipv6PrefixLength: config.RATE_LIMIT_IPV6_PREFIX,
      },
      undefined,
    ),
    turns: new LoginIdTurns(config.REQUESTS_AT_ONCE_PER_LOGIN_ID),
    backends: gatewaysBackends,
    companiesWithDisclaimers,
    requestDeadlineMs: config.REQUEST_DEADLINE_MS,
    health,
    // Policy changes of a test take effect at once.
    companies: new CompanyCache(0),
    logger,
    trustProxy: config.TRUST_PROXY,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The operator: what authctl presents (its certificate and the admin token).
  const operatorOptions = {
    deadlineMs: 10_000,
    adminToken,
    transport: mtlsTransport(filesOf("operator")),
  };
  const operator = {
    identity: createServiceClient(IdentityServiceService, addresses.identity, {
      ...operatorOptions,
      server: "identity",
    }),
    disclaimer: createServiceClient(DisclaimerServiceService, addresses.disclaimer, {
      ...operatorOptions,
      server: "disclaimer",
    }),
  };

  /** A company of its own for a test (the policy's defaults unless given), with an API key. */
  async function createCompany(overrides: Partial<CompanyPolicy> = {}) {
    const company = await seedCompany(operator.identity, overrides);
    let policy = company.policy;
    return {
      id: company.id,
      code: company.code,
      apiKey: company.apiKey,
      get policy() {
        return policy;
      },

      /** Changes the company's policy or suspends it, as an operator would. */
      async update(changes: { suspended?: boolean; policy?: Partial<CompanyPolicy> }): Promise<void> {
        const { company: updated } = await operator.identity.updateCompany({
          companyId: company.id,
          suspended: changes.suspended,
          policy: changes.policy && { ...policy, ...changes.policy },
        });
        if (updated?.policy) policy = updated.policy;
      },

      createUser: (options: UserOptions = {}): Promise<TestUser> =>
        seedUser(operator.identity, company.id, options),

      async updateUserStatus(user: TestUser, status: UserStatus): Promise<void> {
        await operator.identity.updateUser({ companyId: company.id, userId: user.id, status });
      },

      /** An operator's UpdateUser of the user's phone or need of a second factor. */
      async updateUserAuthentication(
        user: TestUser,
        changes: { phone?: string; secondFactorRequired?: boolean; password?: string },
      ): Promise<void> {
        await operator.identity.updateUser({ companyId: company.id, userId: user.id, ...changes });
      },

      /** Ten new backup codes for the user. */
      async backupCodes(user: TestUser): Promise<string[]> {
        return (await operator.identity.generateBackupCodes({ companyId: company.id, userId: user.id }))
          .backupCodes;
      },

      /** Configures one of the company's OAuth provider slots. */
      async setOAuthProvider(settings: Partial<OAuthProviderSettings> & { slot: number }): Promise<void> {
        await operator.identity.setOAuthProvider({
          companyId: company.id,
          settings: providerSettings(settings),
        });
      },

      /** Lets the provider's subject log in as the user. */
      async linkOAuthIdentity(user: TestUser, slot: number, subject: string): Promise<void> {
        await operator.identity.linkOAuthIdentity({ companyId: company.id, userId: user.id, slot, subject });
      },

      /** A disclaimer every user of the company must accept. */
      async createDisclaimer(code: string) {
        const disclaimer = {
          code,
          title: `Title ${code}`,
          description: `About ${code}`,
          link: `https://example.com/${code}`,
        };
        await operator.disclaimer.createDisclaimer({ companyId: company.id, ...disclaimer });
        return disclaimer;
      },
    };
  }

  /** POST (or the options' method) /{company}/v2/auth/{operation} on the gateway. */
  async function call(code: string, operation: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
    if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    const body =
      options.body === undefined || typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
    const response = await fetch(`${gatewayUrl}/${code}/v2/auth/${operation}`, {
      method: options.method ?? "POST",
      headers,
      body,
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }

  return {
    gatewayUrl,
    clock,
    createCompany,
    call,
    /** The gateway reads which companies have disclaimers now, as it does every few seconds. */
    readCompaniesWithDisclaimers: () => companiesWithDisclaimers.refresh(),
    /** The security events the disclaimer service recorded, in commit order. */
    disclaimerEvents: () => disclaimer.recordedEvents(),
    /** Stops the disclaimer service for good: what the gateway does while it cannot be reached. */
    async stopDisclaimerService(): Promise<void> {
      servers.splice(servers.indexOf(disclaimer), 1);
      await disclaimer.stop(100);
    },
    /** Stops the audit service for good: what the gateway does while it cannot be reached. */
    async stopAuditService(): Promise<void> {
      if (!audit) throw new Error("the suite was started without an audit service");
      servers.splice(servers.indexOf(audit), 1);
      await audit.stop(100);
    },
    /** The languages the gateway asked the SMS codes to this user of the company in, oldest first. */
    smsLanguages: (companyId: string, userId: string): string[] =>
      asked.sms
        .filter((request) => request.companyId === companyId && request.userId === userId)
        .map((request) => request.language),
    /** The languages the gateway asked the recovery e-mails to this user of the company in, oldest first. */
    mailLanguages: (companyId: string, userId: string): string[] =>
      asked.mail
        .filter((request) => request.companyId === companyId && request.userId === userId)
        .map((request) => request.language),
    /** The SMS texts sent to this phone of the company, oldest first. */
    smsTo: (companyId: string, phone: string): string[] =>
      sms.messages
        .filter((message) => message.companyId === companyId && message.to === phone)
        .map((message) => message.text),
    /**
     * How many secrets of a kind the services have compared so far (auth_secrets_compared_total: the
     * services run in this process): what the budgets let through.
     */
    async compared(
      kind: "password" | "backup_code" | "control_answer" | "otp" | "totp" | "passkey",
    ): Promise<number> {
      const { values } = await metrics.secretsCompared.get();
      return values.find((value) => value.labels.kind === kind)?.value ?? 0;
    },
    /** How many calls of a method the services have answered so far (auth_grpc_server_calls_total). */
    async served(method: string): Promise<number> {
      const { values } = await metrics.grpcServerCalls.get();
      return values
        .filter((value) => value.labels.method === method)
        .reduce((sum, value) => sum + value.value, 0);
    },
    /** The subjects of identity's notices e-mailed to this address of the company, oldest first. */
    noticesTo: (companyId: string, email: string): string[] =>
      notices.messages
        .filter((message) => message.companyId === companyId && message.to === email)
        .map((message) => message.subject),
    /** The e-mails sent to this address of the company, oldest first. */
    mailTo: (companyId: string, email: string): Array<{ subject: string; text: string }> =>
      mail.messages
        .filter((message) => message.companyId === companyId && message.to === email)
        .map(({ subject, text }) => ({ subject, text })),
    async stop(): Promise<void> {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      closeBackends(backends);
      health.close();
      operator.identity.close();
      operator.disclaimer.close();
      identitysSession.close();
      await Promise.all(servers.map((running) => running.stop(100)));
      await stores.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type InProcessSuite = Awaited<ReturnType<typeof startInProcessSuite>>;
export type TestCompany = Awaited<ReturnType<InProcessSuite["createCompany"]>>;
