// The style of MicCheck's browser code (Web/, and any .js/.mjs under
// Examples, Tests/Web and Tests/Browser), checked with node alone: the npm registry is not reachable here,
// and Debian's eslint 6 does not run on the node this machine has. Each file must parse (`node --check`); lines hold
// at most 120 columns, two-space indentation (a block comment's ` *` lines one more) and no tabs, no
// trailing white space, a newline at the end; `==`/`!=` and `var` are not used.
//   node scripts/lint-js.mjs [FILE...]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['Web', 'Examples', 'Tests/Web', 'Tests/Browser'];

function files(dir) {
  let out = [];
  let entries = [];
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(files(path));
    else if (/\.(m?js)$/.test(name)) out.push(path);
  }
  return out;
}

// The code of a line without its strings and comments, for the rules about operators and keywords.
function code(line) {
  return line.replace(/\/\/.*$/, '').replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
}

const problems = [];
const targets = process.argv.length > 2 ? process.argv.slice(2) : roots.flatMap(files);
for (const file of targets) {
  try {
    execFileSync(process.execPath, ['--check', file], { stdio: 'pipe' });
  } catch (error) {
    problems.push(`${file}: does not parse: ${String(error.stderr).split('\n').slice(0, 5).join(' ')}`);
    continue;
  }
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith('\n')) problems.push(`${file}: no newline at the end`);
  text.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (line.length > 120) problems.push(`${at}: ${line.length} columns`);
    if (line.includes('\t')) problems.push(`${at}: a tab`);
    if (/\s$/.test(line)) problems.push(`${at}: trailing white space`);
    // A block comment's continued lines (` * …`) sit one space in.
    if (/^( *)/.exec(line)[1].length % 2 && !/^ *\*/.test(line)) {
      problems.push(`${at}: indentation of an odd number of spaces`);
    }
    const c = code(line);
    if (/[^=!<>]==[^=]|!=[^=]/.test(c)) problems.push(`${at}: == or != (use === or !==)`);
    if (/\bvar\s/.test(c)) problems.push(`${at}: var (use const or let)`);
  });
}
for (const p of problems) console.log(p);
console.log(`lint-js: ${targets.length} file(s), ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
