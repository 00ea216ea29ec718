import { AuthError } from "@auth/errors";
import { Command, Option } from "commander";
import { apiKeyCommands } from "./commands/apikey.js";
import { auditCommands, webhookCommands } from "./commands/audit.js";
import { companyCommands } from "./commands/company.js";
import { disclaimerCommands } from "./commands/disclaimer.js";
import { eventsCommands } from "./commands/events.js";
import { oauthCommands } from "./commands/oauth.js";
import { passkeyCommands } from "./commands/passkey.js";
import { sessionCommands } from "./commands/session.js";
import { userCommands } from "./commands/user.js";
import { Cli, type GlobalOptions } from "./context.js";
import { type Service, serviceAddresses } from "./service-addresses.js";

const program = new Command("authctl").description(
  "Administer the authentication suite over its gRPC admin APIs.",
);
for (const [service, { env, fallback }] of Object.entries(serviceAddresses)) {
  program.addOption(new Option(`--${service} <host:port>`, `${service} service`).env(env).default(fallback));
}
program
  .option(
    "--admin-token-file <path>",
    "file with the admin token (else AUTH_ADMIN_TOKEN, else .data/admin-token)",
  )
  .option(
    "--tls-dir <dir>",
    "directory with ca.crt, operator.crt and operator.key (else AUTH_TLS_CA_FILE, AUTH_TLS_CERT_FILE, AUTH_TLS_KEY_FILE)",
    ".data/pki",
  )
  .option("--plaintext", "call services started with GRPC_PLAINTEXT_DEV=true (development only)", false)
  .option("--json", "print JSON", false)
  .option("--deadline <ms>", "deadline of each call", "10000")
  .showHelpAfterError();

let cli: Cli | undefined;
const context = () => {
  cli ??= new Cli(program.opts<GlobalOptions>(), (service: Service) => program.getOptionValueSource(service));
  return cli;
};
companyCommands(program, context);
apiKeyCommands(program, context);
userCommands(program, context);
disclaimerCommands(program, context);
oauthCommands(program, context);
sessionCommands(program, context);
passkeyCommands(program, context);
eventsCommands(program);
auditCommands(program, context);
webhookCommands(program, context);

try {
  await program.parseAsync();
} catch (error) {
  const message =
    error instanceof AuthError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.exitCode = 1;
  // Exits once the line is written: a connection still opening to a service that took it and says
  // nothing (a hung process) would keep authctl waiting on its TLS handshake.
  process.stderr.write(`authctl: ${message}\n`, () => process.exit());
} finally {
  cli?.close();
}
