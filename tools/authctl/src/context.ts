import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AuthError } from "@auth/errors";
import {
  createServiceClient,
  type GrpcTransport,
  type ServiceClient,
  type ServiceDefinition,
} from "@auth/grpc-kit/client";
import { AuditServiceService } from "@auth/proto/audit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService, type User } from "@auth/proto/identity";
import { TokenIntrospectionServiceService } from "@auth/proto/introspection";
import { SessionServiceService } from "@auth/proto/session";
import { type AddressSource, notAnswered, type Service } from "./service-addresses.js";
import { type Records, table } from "./table.js";

export interface GlobalOptions {
  identity: string;
  session: string;
  disclaimer: string;
  audit: string;
  adminTokenFile?: string;
  tlsDir: string;
  plaintext: boolean;
  json: boolean;
  deadline: string;
}

/** Where the admin token comes from: AUTH_ADMIN_TOKEN, --admin-token-file, or npm start's .data/admin-token. */
function adminToken(options: GlobalOptions): string {
  if (process.env.AUTH_ADMIN_TOKEN) return process.env.AUTH_ADMIN_TOKEN;
  const file = options.adminTokenFile ?? ".data/admin-token";
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  throw new AuthError("admin.unauthenticated", {
    detail:
      "no admin token: set AUTH_ADMIN_TOKEN or --admin-token-file (npm start keeps one in .data/admin-token)",
  });
}

/**
 * The operator's certificate: AUTH_TLS_CA_FILE, AUTH_TLS_CERT_FILE and AUTH_TLS_KEY_FILE, else
 * ca.crt, operator.crt and operator.key in --tls-dir (npm start's .data/pki by default).
 */
function transport(options: GlobalOptions): GrpcTransport {
  if (options.plaintext) return { kind: "plaintext" };
  const files = {
    caFile: process.env.AUTH_TLS_CA_FILE ?? join(options.tlsDir, "ca.crt"),
    certFile: process.env.AUTH_TLS_CERT_FILE ?? join(options.tlsDir, "operator.crt"),
    keyFile: process.env.AUTH_TLS_KEY_FILE ?? join(options.tlsDir, "operator.key"),
  };
  const missing = Object.values(files).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new AuthError("admin.unauthenticated", {
      detail: `no operator certificate: ${missing.join(", ")} missing (set AUTH_TLS_CA_FILE, AUTH_TLS_CERT_FILE and AUTH_TLS_KEY_FILE, or --tls-dir; npm start keeps them in .data/pki)`,
    });
  }
  return { kind: "mtls", ...files, refreshMs: 60_000 };
}

/** What every command gets: clients of the services, the company lookup and the output. */
export class Cli {
  #identity?: ServiceClient<typeof IdentityServiceService>;
  #session?: ServiceClient<typeof SessionServiceService>;
  #disclaimer?: ServiceClient<typeof DisclaimerServiceService>;
  #introspection?: ServiceClient<typeof TokenIntrospectionServiceService>;
  #audit?: ServiceClient<typeof AuditServiceService>;
  #transport?: GrpcTransport;

  constructor(
    private readonly options: GlobalOptions,
    private readonly addressSource: AddressSource,
  ) {}

  /** A client of the service whose failures to answer say so in one line (notAnswered). */
  #client<D extends ServiceDefinition>(definition: D, service: Service): ServiceClient<D> {
    this.#transport ??= transport(this.options);
    const address = this.options[service];
    const deadlineMs = Number(this.options.deadline);
    const client = createServiceClient(definition, address, {
      deadlineMs,
      adminToken: adminToken(this.options),
      transport: this.#transport,
      server: service,
    });
    const source = this.addressSource(service);
    const calls = client as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    const methods: Record<string, unknown> = { close: () => client.close() };
    for (const name of Object.keys(definition)) {
      methods[name] = (request: unknown) =>
        calls[name]?.(request).catch((error: unknown) => {
          throw notAnswered(error, service, address, source, deadlineMs);
        });
    }
    return methods as ServiceClient<D>;
  }

  identity() {
    this.#identity ??= this.#client(IdentityServiceService, "identity");
    return this.#identity;
  }

  session() {
    this.#session ??= this.#client(SessionServiceService, "session");
    return this.#session;
  }

  /** The read-only introspection that the company's other products use, served by the session service. */
  introspection() {
    this.#introspection ??= this.#client(TokenIntrospectionServiceService, "session");
    return this.#introspection;
  }

  disclaimer() {
    this.#disclaimer ??= this.#client(DisclaimerServiceService, "disclaimer");
    return this.#disclaimer;
  }

  audit() {
    this.#audit ??= this.#client(AuditServiceService, "audit");
    return this.#audit;
  }

  /** The id of the company with this code. */
  async companyId(code: string): Promise<string> {
    const { company } = await this.identity().getCompany({ code });
    if (!company) throw new AuthError("resource.notfound", { detail: `no company ${code}` });
    return company.id;
  }

  /** The company's users, a page of 500 at a time. */
  async *usersOf(companyId: string): AsyncGenerator<User[]> {
    let pageToken = "";
    do {
      const page = await this.identity().listUsers({ companyId, pageSize: 500, pageToken });
      yield page.users;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** Prints the result: as JSON with --json, else as the text given. */
  print(json: unknown, text: string): void {
    process.stdout.write(this.options.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  }

  /** Prints records: one JSON array with --json, else a table with a header row. */
  printList<T>(records: readonly T[], kind: Records<T>): void {
    this.print(records.map(kind.toJSON), table(records, kind));
  }

  /** Prints records: one JSON line each (`line`) with --json, else a table with a header row. */
  printLines<T>(records: readonly T[], line: (record: T) => string, kind: Records<T>): void {
    if (!this.options.json) process.stdout.write(`${table(records, kind)}\n`);
    else for (const record of records) process.stdout.write(`${line(record)}\n`);
  }

  /** Says something beside the output, on stderr, so that stdout holds only what was asked for. */
  note(line: string): void {
    process.stderr.write(`authctl: ${line}\n`);
  }

  /** Prints one record: its JSON object with --json, else the table of its kind with its one row. */
  printRecord<T>(record: T, kind: Records<T>): void {
    this.print(kind.toJSON(record), table([record], kind));
  }

  close(): void {
    for (const client of [this.#identity, this.#session, this.#introspection, this.#disclaimer, this.#audit])
      client?.close();
  }
}

/** Reads a JSON file given on the command line. */
export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AuthError("request.validation.failed", {
      detail: `${path}: ${error instanceof Error ? error.message : "cannot be read"}`,
    });
  }
}
