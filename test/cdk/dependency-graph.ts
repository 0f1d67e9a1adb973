/**
 * The dependency graph CloudFormation builds from a template, and its cycles. A resource depends on
 * every resource it names through `Ref`, `Fn::GetAtt` or `Fn::Sub`, anywhere in its Properties, its
 * `UpdatePolicy` or `CreationPolicy` (CloudFormation counts those too: a CodeDeploy alias's
 * UpdatePolicy names its deployment group), and on those in `DependsOn`. `Metadata`, `Condition`
 * and `DeletionPolicy` create no dependency; parameters and pseudo parameters are not resources.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface CfnTemplate {
  readonly Resources: Record<string, { readonly Type: string; readonly [section: string]: unknown }>;
}

/** The sections of a resource in which a reference makes a dependency. */
const REFERENCING_SECTIONS = ['Properties', 'UpdatePolicy', 'CreationPolicy'] as const;

/** Logical id → the logical ids of the resources it depends on. */
export function dependencyGraph(template: CfnTemplate): Map<string, Set<string>> {
  const ids = new Set(Object.keys(template.Resources));
  const graph = new Map<string, Set<string>>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    const targets = new Set<string>();
    for (const section of REFERENCING_SECTIONS) collectReferences(resource[section] as Json | undefined, targets);
    const dependsOn = resource.DependsOn as string | string[] | undefined;
    for (const target of typeof dependsOn === 'string' ? [dependsOn] : (dependsOn ?? [])) targets.add(target);
    graph.set(id, new Set([...targets].filter((target) => ids.has(target))));
  }
  return graph;
}

function collectReferences(node: Json | undefined, into: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectReferences(item, into);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'Ref' && typeof value === 'string') into.add(value);
    else if (key === 'Fn::GetAtt') {
      // ["Resource", "Attribute"] or "Resource.Attribute"
      const target = Array.isArray(value) ? value[0] : typeof value === 'string' ? value.split('.')[0] : undefined;
      if (typeof target === 'string') into.add(target);
      else collectReferences(value, into);
    } else if (key === 'Fn::Sub') {
      const [text, variables] =
        typeof value === 'string' ? [value, {}] : Array.isArray(value) ? [value[0], value[1] ?? {}] : [undefined, {}];
      const bound = new Set(variables && typeof variables === 'object' && !Array.isArray(variables) ? Object.keys(variables) : []);
      if (typeof text === 'string') {
        // ${Name} and ${Name.Attribute}; ${!Literal} is text.
        for (const [, name] of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
          const target = (name as string).split('.')[0] as string;
          if (!bound.has(target)) into.add(target);
        }
      }
      collectReferences(variables as Json, into);
    } else collectReferences(value, into);
  }
}

/**
 * Every cycle of the graph, each as the path of logical ids that closes it (`A → B → A`), from the
 * strongly connected components (Tarjan's algorithm, iterative so a deep template cannot overflow).
 */
export function findCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];

  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: Iterator<string> }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (graph.get(node) ?? new Set()).values() });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: Iterator<string> };
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = graph.get(frame.node)?.has(frame.node) ?? false;
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => cyclePath(graph, new Set(component)));
}

/** One closed path through a strongly connected component, for a readable failure message. */
function cyclePath(graph: ReadonlyMap<string, ReadonlySet<string>>, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0] as string;
  const path = [start];
  const seen = new Set([start]);
  let current = start;
  for (;;) {
    const next = [...(graph.get(current) ?? [])].filter((n) => members.has(n)).sort();
    const back = next.find((n) => n === start);
    const forward = next.find((n) => !seen.has(n));
    // Prefer going on through unvisited members, so the path shows the whole loop.
    const step = forward ?? back ?? (next[0] as string);
    path.push(step);
    if (step === start || seen.has(step)) return path;
    seen.add(step);
    current = step;
  }
}
