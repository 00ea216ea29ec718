import { AuthError } from "@auth/errors";
import { Command } from "commander";
import { apiKeyCommands } from "./commands/apikey.js";
import { companyCommands } from "./commands/company.js";
import { disclaimerCommands } from "./commands/disclaimer.js";
import { oauthCommands } from "./commands/oauth.js";
import { sessionCommands } from "./commands/session.js";
import { userCommands } from "./commands/user.js";
import { Cli, type GlobalOptions } from "./context.js";

const program = new Command("authctl")
  .description("Administer the authentication suite over its gRPC admin APIs.")
  .option("--identity <host:port>", "identity service", process.env.AUTH_IDENTITY_ADDR ?? "127.0.0.1:50051")
  .option("--session <host:port>", "session service", process.env.AUTH_SESSION_ADDR ?? "127.0.0.1:50052")
  .option(
    "--disclaimer <host:port>",
    "disclaimer service",
    process.env.AUTH_DISCLAIMER_ADDR ?? "127.0.0.1:50055",
  )
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
  cli ??= new Cli(program.opts<GlobalOptions>());
  return cli;
};
companyCommands(program, context);
apiKeyCommands(program, context);
userCommands(program, context);
disclaimerCommands(program, context);
oauthCommands(program, context);
sessionCommands(program, context);

try {
  await program.parseAsync();
} catch (error) {
  const message =
    error instanceof AuthError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`authctl: ${message}\n`);
  process.exitCode = 1;
} finally {
  cli?.close();
}
