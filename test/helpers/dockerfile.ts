// Reads a Dockerfile into its stages and instructions (the instructions Ward's uses; any other one
// throws, so the container test cannot skip over what it does not understand).

export interface Instruction {
  op: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string | null;
  image: string;
  steps: Instruction[];
}

export interface Dockerfile {
  /** ARG defaults declared before the first FROM. */
  args: Record<string, string>;
  stages: Stage[];
}

const KNOWN = ['ARG', 'FROM', 'RUN', 'COPY', 'ENV', 'WORKDIR', 'USER', 'VOLUME', 'EXPOSE', 'HEALTHCHECK', 'CMD'];

export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  let pending: Instruction | null = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith('#') || line === '') return;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1).trim() : line;
    if (pending) pending.args = `${pending.args} ${body}`.trim();
    else {
      const m = /^([A-Z]+)\s+(.*)$/.exec(body);
      if (!m || !KNOWN.includes(m[1])) throw new Error(`Dockerfile line ${i + 1}: unknown instruction: ${line}`);
      pending = { op: m[1], args: m[2], line: i + 1 };
    }
    if (!continued) {
      instructions.push(pending);
      pending = null;
    }
  });
  if (pending) throw new Error('Dockerfile ends inside a continued line');
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: FROM ${ins.args}`);
      const image = m[1].replace(
        /^\$\{(\w+)\}$/,
        (_, a: string) => args[a] ?? stages.find((s) => s.name === a)?.image ?? a,
      );
      stages.push({ name: m[2] ?? null, image, steps: [] });
    } else if (!stages.length) {
      if (ins.op !== 'ARG') throw new Error(`Dockerfile line ${ins.line}: ${ins.op} before FROM`);
      const [name, value = ''] = ins.args.split('=');
      args[name] = value;
    } else stages[stages.length - 1].steps.push(ins);
  }
  return { args, stages };
}

/** The `KEY=value` pairs of a stage's ENV instructions (values without spaces or quotes). */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of stage.steps.filter((x) => x.op === 'ENV'))
    for (const pair of s.args.split(/\s+/)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=([^"'\s]*)$/.exec(pair);
      if (!m) throw new Error(`Dockerfile line ${s.line}: ENV ${pair} is not KEY=value`);
      env[m[1]] = m[2];
    }
  return env;
}

/** A COPY's flags, sources and destination. */
export function copyOf(step: Instruction): { from: string | null; sources: string[]; dest: string } {
  const parts = step.args.split(/\s+/);
  const flags = parts.filter((p) => p.startsWith('--'));
  const paths = parts.filter((p) => !p.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length) ?? null;
  if (flags.length > (from ? 1 : 0)) throw new Error(`Dockerfile line ${step.line}: COPY flags ${flags.join(' ')}`);
  if (paths.length < 2) throw new Error(`Dockerfile line ${step.line}: COPY needs a source and a destination`);
  return { from, sources: paths.slice(0, -1), dest: paths[paths.length - 1] };
}

/** The exec form (JSON array) of CMD, or of HEALTHCHECK's CMD after its options. */
export function execForm(step: Instruction): string[] {
  const json = step.op === 'HEALTHCHECK' ? step.args.slice(step.args.indexOf('CMD ') + 4) : step.args;
  const argv = JSON.parse(json) as unknown;
  if (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string'))
    throw new Error(`Dockerfile line ${step.line}: ${step.op} is not in exec form`);
  return argv as string[];
}
