import { AuthError } from "@auth/errors";
import { Company, CompanyPolicy, PasskeySettings } from "@auth/proto/identity";
import type { Command } from "commander";
import { type Cli, readJsonFile } from "../context.js";
import { type Records, table } from "../table.js";

/** The company's relying party for passkeys, in one line. */
function passkeysLine(settings: PasskeySettings | undefined): string {
  if (!settings?.rpId) return "passkeys: off";
  const passwordless = settings.allowPasswordless ? "; passwordless logins allowed" : "";
  return `passkeys: RP ID ${settings.rpId}; origins ${settings.origins.join(", ")}${passwordless}`;
}

interface PasskeyOptions {
  rpId?: string;
  origin?: string[];
  allowPasswordless?: boolean;
  off?: boolean;
}

const companyRecords: Records<Company> = {
  columns: [
    { header: "code", cell: (company) => company.code },
    { header: "name", cell: (company) => company.name },
    { header: "status", cell: (company) => (company.suspended ? "suspended" : "active") },
    { header: "id", cell: (company) => company.id },
  ],
  none: "no companies",
  toJSON: (company) => Company.toJSON(company),
};

export function companyCommands(program: Command, cli: () => Cli): void {
  const company = program.command("company").description("companies and their policies");

  company
    .command("create <code>")
    .description("create a company; the policy file holds a CompanyPolicy as JSON (proto field names)")
    .requiredOption("--name <name>", "display name")
    .option("--policy-file <path>", "JSON file with the company's policy (examples/ holds some)")
    .option("--with-api-key [label]", "also create an API key (shown once): the bootstrap of a deployment")
    .action(
      async (code: string, options: { name: string; policyFile?: string; withApiKey?: string | true }) => {
        const policy = options.policyFile
          ? CompanyPolicy.fromJSON(readJsonFile(options.policyFile))
          : undefined;
        const identity = cli().identity();
        const company = (await identity.createCompany({ code, name: options.name, policy }))
          .company as Company;
        if (options.withApiKey === undefined) {
          cli().printRecord(company, companyRecords);
          return;
        }
        const label = options.withApiKey === true ? "bootstrap" : options.withApiKey;
        const key = await identity.createApiKey({ companyId: company.id, label });
        cli().print(
          { company: Company.toJSON(company), apiKey: key.apiKey, keyId: key.keyId },
          `${table([company], companyRecords)}\nAPI key: ${key.apiKey}\t(key id ${key.keyId}; shown once)`,
        );
      },
    );

  company
    .command("get <code>")
    .description("show a company and its policy")
    .action(async (code: string) => {
      const { company: found } = await cli().identity().getCompany({ code });
      const json = Company.toJSON(found as Company);
      cli().print(json, JSON.stringify(json, null, 2));
    });

  company
    .command("list")
    .description("list the companies")
    .action(async () => {
      const companies: Company[] = [];
      let pageToken = "";
      do {
        const page = await cli().identity().listCompanies({ pageSize: 500, pageToken });
        companies.push(...page.companies);
        pageToken = page.nextPageToken;
      } while (pageToken);
      cli().printList(companies, companyRecords);
    });

  company
    .command("passkeys <code>")
    .description(
      'set the company\'s relying party for passkeys (docs/decisions.md, "Passkeys"), keeping the rest of its policy',
    )
    .option(
      "--rp-id <host>",
      "the RP ID: the login page's host or a registrable suffix of it (never an IP address)",
    )
    .option(
      "--origin <origin>",
      "an origin ceremonies may come from, https://host[:port] of the RP ID or under it (http:// for localhost); repeat for more",
      (origin: string, origins: string[] = []) => [...origins, origin],
    )
    .option("--allow-passwordless", "a user-verified passkey may replace the password and the second factor")
    .option("--off", "turn passkeys off for the company")
    .action(async (code: string, options: PasskeyOptions) => {
      if (Boolean(options.off) === (options.rpId !== undefined))
        throw new AuthError("request.validation.failed", {
          detail: "give either --rp-id (with --origin) or --off",
        });
      const passkeys = options.off
        ? undefined
        : {
            rpId: options.rpId ?? "",
            origins: options.origin ?? [],
            allowPasswordless: options.allowPasswordless ?? false,
          };
      const identity = cli().identity();
      const { company: found } = await identity.getCompany({ code });
      if (!found?.policy) throw new Error(`identity answered no policy of ${code}`);
      // The policy as read, secrets left out: identity keeps the stored ones (docs/security.md).
      const { company: updated } = await identity.updateCompany({
        companyId: found.id,
        policy: { ...found.policy, passkeys },
      });
      const settings = updated?.policy?.passkeys;
      cli().print(settings ? PasskeySettings.toJSON(settings) : {}, passkeysLine(settings));
    });

  company
    .command("update <code>")
    .description("rename, suspend, resume, or replace the policy of a company")
    .option("--name <name>", "new display name")
    .option("--suspend", "suspend: every login step answers auth.restricted")
    .option("--resume", "resume after a suspension")
    .option("--policy-file <path>", "JSON file with the whole new policy")
    .action(
      async (
        code: string,
        options: { name?: string; suspend?: boolean; resume?: boolean; policyFile?: string },
      ) => {
        const updated = await cli()
          .identity()
          .updateCompany({
            companyId: await cli().companyId(code),
            name: options.name,
            suspended: options.suspend ? true : options.resume ? false : undefined,
            policy: options.policyFile ? CompanyPolicy.fromJSON(readJsonFile(options.policyFile)) : undefined,
          });
        cli().printRecord(updated.company as Company, companyRecords);
      },
    );
}
