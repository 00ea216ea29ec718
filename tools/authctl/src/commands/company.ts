import { Company, CompanyPolicy } from "@auth/proto/identity";
import type { Command } from "commander";
import { type Cli, readJsonFile } from "../context.js";
import { type Records, table } from "../table.js";

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
