// Submitting a form or a dialog, one way everywhere.
// useFormSave: validate (表单验证失败! on failure), then save with the button spinning; a refusal is
// the request wrapper's toast and the form stays open.
// useRefusal: a dialog's action whose refusal stays in the dialog: while it runs the OK button spins; when the
// server refuses (e.g. a refund above the balance), its own words show under the form in a red alert
// (RefusalAlert) and the dialog stays open for a correction; the next change of the form clears it.
import { useState, type CSSProperties, type ReactNode } from 'react';
import { Alert, type FormInstance } from 'antd';
import { ApiError } from '../api/request.ts';
import { formValues } from './validate.ts';
import { useBusyRun } from './busyRun.ts';

/** The message to show for a failed call: the server's own words when it gave any. */
export function failureText(e: unknown): string {
  if (e instanceof ApiError) return e.serverMessage || e.message;
  return e instanceof Error ? e.message : '操作失败';
}

export interface Refusal {
  busy: boolean;
  refusal: string;
  /** clear the shown refusal (a changed form: `onValuesChange={refusal.clear}`) */
  clear(): void;
  /** run the action: busy while it runs, its failure becomes the refusal */
  run(action: () => Promise<void>): Promise<void>;
  /** validate the form (formValues: 表单验证失败! on failure), then run the action with its values */
  runForm<T>(form: FormInstance<T>, action: (values: T) => Promise<void>): Promise<void>;
}

export function useRefusal(): Refusal {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setRefusal('');
    try {
      await action();
    } catch (e) {
      setRefusal(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    refusal,
    clear: () => {
      if (refusal) setRefusal('');
    },
    run,
    runForm: async (form, action) => {
      const v = await formValues(form);
      if (v !== undefined) await run(() => action(v));
    },
  };
}

/** The refusal under the form: `title` (e.g. 缴费未成功) and the server's words; nothing when none. */
export function RefusalAlert({ title, refusal, testId, style }: { title: ReactNode; refusal: string; testId?: string; style?: CSSProperties }) {
  if (!refusal) return null;
  return <Alert style={style} type="error" showIcon message={title} description={testId ? <span data-testid={testId}>{refusal}</span> : refusal} />;
}

/**
 * A save whose refusal the request wrapper shows (a toast): `run` the action while `saving`; `save`
 * validates the form first. The dialog stays open when the action throws.
 */
export function useFormSave() {
  const { busy: saving, run } = useBusyRun();
  const save = async <T,>(form: FormInstance<T>, action: (values: T) => Promise<void>) => {
    const v = await formValues(form);
    if (v !== undefined) await run(() => action(v));
  };
  return { saving, save, run };
}
