// Build step: ProField (behind ProTable and the schema forms) imports a renderer for every value type,
// so a list page would load the colour picker, image viewer, slider, rate, progress, cascader, segmented
// and code renderers that no page of this app uses (~350 KB of JavaScript before compression). This
// plugin turns those imports of pro-field's index into lazy components with their own Suspense: they
// load only if some column ever uses such a value type. The value types the app uses stay as they are.
import type { Plugin } from 'vite';

const PRO_FIELD_INDEX = /[\\/]@ant-design[\\/]pro-field[\\/]es[\\/]index\.js$/;
export const LAZY_FIELDS = ['Cascader', 'Code', 'ColorPicker', 'Image', 'Progress', 'Rate', 'Segmented', 'Slider'];
const PREFIX = '\0lazy-pro-field:';

export function lazyProFields(): Plugin {
  return {
    name: 'meter-lazy-pro-fields',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !PRO_FIELD_INDEX.test(importer)) return null;
      const name = /^\.\/components\/(\w+)$/.exec(source)?.[1];
      if (!name || !LAZY_FIELDS.includes(name)) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? PREFIX + real.id : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const real = JSON.stringify(id.slice(PREFIX.length));
      return [
        "import { createElement, forwardRef, lazy, Suspense } from 'react';",
        `const Field = lazy(() => import(${real}));`,
        'const LazyField = forwardRef((props, ref) => createElement(Suspense, { fallback: null }, createElement(Field, { ...props, ref })));',
        'export default LazyField;',
      ].join('\n');
    },
  };
}
