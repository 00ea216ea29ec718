import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A service of infra/compose.yaml, as far as these checks read it. */
export interface ComposeService {
  build?: { target?: string };
  image?: string;
  user?: string;
  profiles?: string[];
  environment?: Record<string, string | null>;
  command?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const infraDir = fileURLToPath(new URL("../../", import.meta.url));
const repositoryDir = fileURLToPath(new URL("../../../", import.meta.url));

/** A volume entry in compose's short syntax: `name:/path[:ro]` (a named volume) or `./dir:/path[:ro]` (a host directory). */
export interface Mount {
  source: string;
  target: string;
  named: boolean;
}

export function mountsOf(service: ComposeService | undefined): Mount[] {
  return (service?.volumes ?? []).map((entry) => {
    const [source = "", target = ""] = entry.split(":");
    return { source, target, named: !/^[./~]/.test(source) };
  });
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() || (entry.isSymbolicLink() && statSync(path).isFile()) ? [path] : [];
  });
}

/**
 * Compose's named volumes as directories of this machine, and each container's files as its mounts
 * show them: what a one-shot writes into a volume is what every service mounting that volume reads.
 * No Docker engine is needed: a one-shot's command runs here, with each absolute path it names
 * taken in a directory that stands for its container's filesystem (its mounts as symbolic links,
 * and the image's /app as this repository with its built workspaces).
 */
export class ComposeVolumes {
  readonly root = mkdtempSync(join(tmpdir(), "compose-volumes-"));

  constructor(private readonly services: Record<string, ComposeService>) {}

  /** Where a mount's files are on this machine: a directory per named volume, or the host's directory or file. */
  hostDirOf(mount: Mount): string {
    if (!mount.named) return resolve(infraDir, mount.source);
    const directory = join(this.root, "volumes", mount.source);
    mkdirSync(directory, { recursive: true });
    return directory;
  }

  /** A directory standing for the service's container: its mounts, and the image's /app. */
  private filesystemOf(name: string): string {
    const filesystem = join(this.root, "containers", name);
    const links: Array<[string, string]> = [
      ["/app", repositoryDir],
      ...mountsOf(this.services[name]).map((mount): [string, string] => [
        mount.target,
        this.hostDirOf(mount),
      ]),
    ];
    for (const [target, source] of links) {
      const link = join(filesystem, target);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(source, link);
    }
    return filesystem;
  }

  /**
   * Runs a one-shot's command (`node <script> <arguments>`) as its container would; `adapt` may
   * change an argument that cannot mean the same here (a user id). Returns what it printed.
   */
  run(name: string, adapt: (argument: string, previous: string | undefined) => string = (a) => a): string {
    const [program, ...args] = this.services[name]?.command ?? [];
    if (program !== "node") throw new Error(`${name}'s command is not node <script>: ${program}`);
    const filesystem = this.filesystemOf(name);
    const inContainer = (argument: string) => (isAbsolute(argument) ? join(filesystem, argument) : argument);
    return execFileSync(
      process.execPath,
      args.map((argument, index) => inContainer(adapt(argument, args[index - 1]))),
      { cwd: filesystem, encoding: "utf8" },
    );
  }

  /** Every file the service's container can read, by its path there, with where it is on this machine. */
  filesSeenBy(name: string): Map<string, string> {
    const seen = new Map<string, string>();
    for (const mount of mountsOf(this.services[name])) {
      const source = this.hostDirOf(mount);
      if (statSync(source).isFile()) seen.set(mount.target, source);
      else for (const file of filesUnder(source)) seen.set(join(mount.target, relative(source, file)), file);
    }
    return seen;
  }

  /** Where a path of the service's container is on this machine, through the mount that holds it. */
  hostPathIn(name: string, path: string): string | undefined {
    const mount = mountsOf(this.services[name])
      .filter((m) => path === m.target || path.startsWith(`${m.target}/`))
      .sort((a, b) => b.target.length - a.target.length)[0];
    return mount && join(this.hostDirOf(mount), relative(mount.target, path));
  }
}
