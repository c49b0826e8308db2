// ResourceTable's create/edit dialog: the schema form (ProForm) built from the columns. Loaded when a
// dialog first opens, so a list page does not carry ProForm until someone adds or edits a row.
import { useMemo, useRef, useState } from 'react';
import { Button, Modal, Spin } from 'antd';
import { BetaSchemaForm, type ProFormInstance } from '@ant-design/pro-components';
import { toast } from '../app/feedback.tsx';
import { FORM_INVALID, scrollToFirstError } from './validate.ts';
import { formColumns, type FormMode, type ResourceColumn } from './ResourceTable.tsx';

export interface ResourceFormProps<T> {
  mode: FormMode;
  title: string;
  columns: ResourceColumn<T>[];
  initial: Record<string, unknown>;
  /** prefixes the field ids, so labels point at the modal's inputs, not the search form's */
  name: string;
  width: number;
  gridCols: 1 | 2;
  /** send the values; resolves true when saved (false: refused, the request wrapper showed why) */
  submit(values: Record<string, unknown>): Promise<boolean>;
  onClose(): void;
}

export default function ResourceForm<T>(props: ResourceFormProps<T>) {
  const { mode, title, columns, initial, name, width, gridCols, submit, onClose } = props;
  const formCols = useMemo(() => formColumns(columns, mode), [columns, mode]);
  const formRef = useRef<ProFormInstance | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    let values: Record<string, unknown>;
    try {
      values = (await formRef.current!.validateFieldsReturnFormatValue!()) as Record<string, unknown>;
    } catch (e) {
      // a quicker second click makes the first validation "out of date" although nothing failed: go on
      // with the values, so the duplicate reaches the request wrapper (请勿重复操作)
      const err = e as { outOfDate?: boolean; errorFields?: unknown[] };
      if (err?.outOfDate && !err.errorFields?.length) {
        values = (formRef.current!.getFieldsFormatValue?.() ?? {}) as Record<string, unknown>;
      } else {
        toast.warning(FORM_INVALID);
        scrollToFirstError(formRef.current, e);
        return;
      }
    }
    setSaving(true);
    try {
      if (!(await submit(values))) return;
    } finally {
      setSaving(false);
    }
    onClose();
  };

  return (
    <Modal
      open
      title={title}
      width={width}
      destroyOnHidden
      maskClosable={false}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>取消</Button>,
        // not disabled while saving: a second identical save reaches the request wrapper, which
        // refuses it with 请勿重复操作 (SPEC §4/§8) instead of silently swallowing the click
        <Button key="save" type="primary" onClick={() => void save()}>保存</Button>,
      ]}
    >
      <Spin spinning={saving}>
        <BetaSchemaForm<Record<string, unknown>>
          layoutType="Form"
          formRef={formRef}
          name={name}
          layout="vertical"
          grid
          colProps={{ span: gridCols === 2 ? 12 : 24 }}
          rowProps={{ gutter: 16 }}
          columns={formCols}
          initialValues={initial}
          submitter={false}
          onFinish={async () => {
            await save();
          }}
        />
      </Spin>
    </Modal>
  );
}
