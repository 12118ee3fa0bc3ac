// The `nexus` command. It checks the Node.js version before importing anything else: on an older
// Node.js a dependency would fail deep inside, with a message that names neither Nexus nor Node.js.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const required = engines.node.replace(/^>=\s*/, '');
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const [requiredMajor = 0, requiredMinor = 0] = required.split('.').map(Number);
if (major < requiredMajor || (major === requiredMajor && minor < requiredMinor)) {
  process.stderr.write(`nexus needs Node.js ${required} or newer (this is Node.js ${process.versions.node}).\n`);
  process.exit(2);
}
const { main } = await import('./main.js');
await main(fileURLToPath(import.meta.url));
