// The process's own metrics, once per process whatever the number of Ward instances in it (tests run
// several): prom-client's default metrics (CPU, memory, heap, event-loop lag, handles, GC) and
// `ward_processes` (1 per process: the number of workers answering once summed across a cluster).
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

let registry: Registry | undefined;

export function processMetrics(): Registry {
  if (registry) return registry;
  registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'ward_processes',
    help: 'Ward processes answering (the workers of one cluster)',
    registers: [registry],
    collect() {
      this.set(1);
    },
  });
  return registry;
}

/** Prometheus text of this process: its own metrics, then the instance's. */
export async function localExposition(instance: Registry): Promise<string> {
  return Registry.merge([processMetrics(), instance]).metrics();
}

/** The registries a cluster worker hands its primary (cluster-metrics.ts). */
export const localRegistries = (instance: Registry): Registry[] => [processMetrics(), instance];
