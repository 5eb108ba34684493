import { clip, listDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'defer_javascript',
  category: 'performance',
  priority: 'low',
  title: 'Scripts in the head do not block rendering',
  failTitle: 'Scripts in the head block rendering',
  howToFix:
    'Add defer (or async for independent scripts) to the <script src> tags in the <head>, or load them as type="module", so that the page renders before they run.',
  failsWhen:
    'an external `<script src>` in the `<head>` has neither `async`, `defer` nor `type="module"` (inline scripts and non-JS types ignored)',
  needsContent: true,
  run(a) {
    const blocking = a.scripts.filter(
      (s) => s.inHead && s.src !== null && !s.async && !s.defer && !s.module && !s.nonExecutable,
    );
    if (blocking.length === 0)
      return { passed: true, message: 'No script in the <head> blocks rendering.', value: 0 };
    return {
      passed: false,
      message: `${blocking.length} script${blocking.length === 1 ? '' : 's'} in the <head> load${blocking.length === 1 ? 's' : ''} without async or defer.`,
      value: blocking.length,
      details: listDetails(blocking.map((s) => clip(s.url ?? s.src ?? '', 200))),
    };
  },
};

export default check;
