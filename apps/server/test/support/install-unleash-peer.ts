import { ensureInstalled } from "@vexil/unleash-peer";

// `.ci/run` installs the peer (Unleash 8.2 and its Node 24) before the suites, alone on the machine,
// so that no peer test spends its time in npm. Exit 1 when the install failed.
try {
  const seconds = ensureInstalled();
  console.log(seconds === 0 ? "Unleash 8.2 peer: already installed" : `Unleash 8.2 peer: installed in ${seconds.toFixed(0)} s`);
} catch (error) {
  console.error(`Unleash 8.2 peer: install failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
