/**
 * The second half of `npm run lint`'s import check: reads dependency-cruiser's JSON result on standard input, prints
 * the violations of the rules in .dependency-cruiser.cjs, and adds the one floor those rules cannot say: no cycle
 * between the folders of server/src. A folder is a top-level folder of server/src with all it holds (invoices/sdi/ is
 * invoices/); each file at the top of server/src (main.ts, app.module.ts, worker.ts, …) is a node of its own. As for
 * no-circular, a type-only import makes no cycle, and tests (spec files) are left out: they may reach anywhere.
 */
import { readFileSync } from 'node:fs';

function folderOf(path) {
  if (/\.(spec|test)\.ts$/.test(path)) return undefined;
  const folder = /^server\/src\/[^/]+\//.exec(path);
  if (folder) return folder[0];
  return /^server\/src\/[^/]+\.ts$/.test(path) ? path : undefined;
}

/** Tarjan's strongly connected components of the folder graph: every group of folders that reach each other. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

const input = readFileSync(0, 'utf8');
if (!input.trim()) {
  console.error('dependency-floors: dependency-cruiser wrote nothing (see its error above)');
  process.exit(2);
}
const { modules, summary } = JSON.parse(input);

let errors = 0;
for (const violation of summary.violations) {
  if (violation.rule.severity === 'error') errors++;
  const cycle = violation.cycle ? `\n      ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')}` : '';
  console.log(`  ${violation.rule.severity} ${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`);
}

/** folder → folder → the file-level imports behind that arrow (a few, to say where to look). */
const graph = new Map();
for (const module of modules) {
  const from = folderOf(module.source);
  if (!from) continue;
  if (!graph.has(from)) graph.set(from, new Map());
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved);
    if (!to || to === from || dependency.dependencyTypes.includes('type-only')) continue;
    const arrows = graph.get(from);
    if (!arrows.has(to)) arrows.set(to, []);
    arrows.get(to).push(`${module.source} → ${dependency.resolved}`);
  }
}

for (const component of stronglyConnected(graph)) {
  errors++;
  console.log(`  error no-folder-cycle: ${component.join(', ')} import each other`);
  for (const from of component)
    for (const [to, imports] of graph.get(from))
      if (component.includes(to)) console.log(`      ${from} → ${to}: ${imports.slice(0, 3).join(', ')}${imports.length > 3 ? ', …' : ''}`);
}

const cruised = `${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies cruised`;
console.log(errors ? `\n✘ ${errors} dependency floor(s) broken (${cruised})` : `✔ no dependency violations, no folder cycles (${cruised})`);
process.exit(errors ? 1 : 0);
