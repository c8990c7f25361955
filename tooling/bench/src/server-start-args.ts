import { readFileSync } from "node:fs";

/**
 * The arguments that apps/server's `start` script gives node after its build step
 * (`node <flags> dist/server.mjs`), so that the bench runs the server exactly as `pnpm start`
 * does, with the same V8 flags.
 */
export function serverStartArgs(serverDir: URL): string[] {
  const manifest = JSON.parse(readFileSync(new URL("package.json", serverDir), "utf8")) as { scripts: { start: string } };
  const command = (manifest.scripts.start.split("&&").at(-1) as string).trim().split(/\s+/);
  if (command[0] !== "node") throw new Error(`apps/server's start script no longer ends in a node command: ${manifest.scripts.start}`);
  return command.slice(1);
}
