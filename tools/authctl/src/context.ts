import { existsSync, readFileSync } from "node:fs";
import { AuthError } from "@auth/errors";
import { createServiceClient, type ServiceClient } from "@auth/grpc-kit";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import { IdentityServiceService } from "@auth/proto/identity";
import { SessionServiceService } from "@auth/proto/session";

export interface GlobalOptions {
  identity: string;
  session: string;
  disclaimer: string;
  adminTokenFile?: string;
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

/** What every command gets: clients of the services, the company lookup and the output. */
export class Cli {
  #identity?: ServiceClient<typeof IdentityServiceService>;
  #session?: ServiceClient<typeof SessionServiceService>;
  #disclaimer?: ServiceClient<typeof DisclaimerServiceService>;

  constructor(private readonly options: GlobalOptions) {}

  #clientOptions() {
    return { deadlineMs: Number(this.options.deadline), adminToken: adminToken(this.options) };
  }

  identity() {
    this.#identity ??= createServiceClient(
      IdentityServiceService,
      this.options.identity,
      this.#clientOptions(),
    );
    return this.#identity;
  }

  session() {
    this.#session ??= createServiceClient(SessionServiceService, this.options.session, this.#clientOptions());
    return this.#session;
  }

  disclaimer() {
    this.#disclaimer ??= createServiceClient(
      DisclaimerServiceService,
      this.options.disclaimer,
      this.#clientOptions(),
    );
    return this.#disclaimer;
  }

  /** The id of the company with this code. */
  async companyId(code: string): Promise<string> {
    const { company } = await this.identity().getCompany({ code });
    if (!company) throw new AuthError("resource.notfound", { detail: `no company ${code}` });
    return company.id;
  }

  /** Prints the result: as JSON with --json, else as the text given. */
  print(json: unknown, text: string): void {
    process.stdout.write(this.options.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  }

  close(): void {
    for (const client of [this.#identity, this.#session, this.#disclaimer]) client?.close();
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
