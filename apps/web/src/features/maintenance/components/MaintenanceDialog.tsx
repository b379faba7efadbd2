import { Alert, Form, Input, Modal, Radio, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { MAINT_MSG, MAINTENANCE_LIMITS, MAINTENANCE_RECURRENCES, type MaintenanceWindow } from '@vigil/contracts';
import { SecondaryText } from '../../../components/Text.tsx';
import { messageOf } from '../../../lib/errors.ts';
import { validated } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useAppSelector } from '../../../lib/state/hooks.ts';
import { useCreateMaintenanceWindowMutation, useUpdateMaintenanceWindowMutation } from '../api.ts';
import {
  changedBodyOf,
  createBodyOf,
  devicesProblem,
  endProblem,
  FIELD_OF_MESSAGE,
  formOfWindow,
  newWindowForm,
  reasonProblem,
  startProblem,
  type MaintenanceFormValues,
} from '../form.ts';
import { RECURRENCE_LABEL } from '../labels.ts';
import { useDeviceOptions } from '../useDeviceOptions.ts';
import type { TenantZone } from '../useTenantZone.ts';

/** The time a check runs at (a one-off window must not be over by then). */
const currentTime = () => Date.now();

/** An antd rule from one of form.ts's checks (the message is the contract's). */
const check = (problem: () => string | undefined): Rule => ({
  validator: () => {
    const text = problem();
    return text ? Promise.reject(new Error(text)) : Promise.resolve();
  },
});

/**
 * Schedule / Edit Maintenance (docs/web-pages.md "Maintenance windows"): the whole portal or chosen
 * devices (searchable), start and end in the tenant's zone (named in the labels), Repeats and Reason.
 * The fields are checked with the server's rules and texts; a refusal by the server shows under its
 * field (or above the form) besides the error toast. Loaded when first opened (the card's lazy chunk):
 * it brings the form, the modal and the contract's schemas, which reading the list does not need.
 */
export default function MaintenanceDialog({
  open,
  customerId,
  window: edited,
  deviceId,
  zone,
  onClose,
}: {
  open: boolean;
  customerId: number;
  /** The window to edit; none to schedule one. */
  window?: MaintenanceWindow;
  /** A new window's preset device (the device page). */
  deviceId?: number;
  zone: TenantZone;
  onClose: () => void;
}) {
  const [form] = Form.useForm<MaintenanceFormValues>();
  const scope = Form.useWatch('scope', form);
  const [create, creation] = useCreateMaintenanceWindowMutation();
  const [update, updating] = useUpdateMaintenanceWindowMutation();
  const chosen = Form.useWatch('deviceIds', form);
  const devices = useDeviceOptions(customerId, open, chosen);
  const [serverError, setServerError] = useState<string>();
  const editing = edited !== undefined;
  const tz = zone.zone;
  // The native date picker's icon and popup follow the page's theme (dark icon on a dark field otherwise).
  const colorScheme = useAppSelector((st) => st.theme.mode);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(edited ? formOfWindow(edited, tz) : newWindowForm(currentTime(), tz, deviceId));
  }, [open, edited, deviceId, tz, form]);

  const values = () => form.getFieldsValue(true) as MaintenanceFormValues;

  const close = () => {
    setServerError(undefined);
    onClose();
  };

  const submit = async () => {
    setServerError(undefined);
    if (!(await validated(form))) return; // the messages show under the fields
    // Every value, also those of a field the chosen scope hides.
    const v = values();
    const changes = edited && changedBodyOf(formOfWindow(edited, tz), v, tz);
    if (changes && Object.keys(changes).length === 0) return close(); // nothing to save
    const result = edited && changes ? await update({ id: edited.id, body: changes }) : await create(createBodyOf(customerId, v, tz));
    if (result.error) {
      const text = messageOf(result.error);
      const field = FIELD_OF_MESSAGE[text];
      if (field) form.setFields([{ name: field, errors: [text] }]);
      else setServerError(text);
      return;
    }
    notify.success(editing ? MAINT_MSG.updated : MAINT_MSG.created);
    onClose();
  };

  const zoneNote = zone.isTenant ? tz : `${tz}, this browser's zone`;

  return (
    <Modal
      title={editing ? 'Edit Maintenance' : 'Schedule Maintenance'}
      open={open}
      width={600}
      onCancel={close}
      onOk={submit}
      okText={editing ? 'Save' : 'Schedule'}
      okButtonProps={{ disabled: !zone.ready }}
      confirmLoading={creation.isLoading || updating.isLoading}
      forceRender
    >
      {serverError && <Alert type="error" showIcon title={serverError} style={{ marginBottom: 16 }} />}
      <Form form={form} name="maintenance" layout="vertical" requiredMark={false}>
        <Form.Item label="Devices" name="scope">
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 'portal', label: 'Whole portal' },
              { value: 'devices', label: 'Chosen devices' },
            ]}
          />
        </Form.Item>
        {scope === 'devices' ? (
          <Form.Item
            name="deviceIds"
            label="Chosen devices"
            dependencies={['scope']}
            rules={[check(() => devicesProblem(values()))]}
            extra={`The devices of this portal${devices.partial ? ' (the first by name; type to search them all)' : ''}.`}
          >
            <Select
              mode="multiple"
              allowClear
              // A portal with more devices than one page: the server filters by what is typed.
              showSearch={devices.partial ? { filterOption: false, onSearch: devices.onSearch } : { optionFilterProp: 'label' }}
              loading={devices.loading}
              placeholder="Search the portal's devices"
              maxTagCount="responsive"
              options={devices.options}
              onSelect={devices.onSelect}
            />
          </Form.Item>
        ) : (
          <SecondaryText style={{ display: 'block', marginTop: -12, marginBottom: 16 }}>
            Every device of the portal, also devices that appear later.
          </SecondaryText>
        )}
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <Form.Item
            label={`Starts (${zoneNote})`}
            name="startsAt"
            style={{ flex: '1 1 220px', minWidth: 0 }}
            rules={[check(() => startProblem(values(), tz))]}
          >
            <Input type="datetime-local" aria-label="Starts" style={{ colorScheme }} />
          </Form.Item>
          <Form.Item
            label={`Ends (${zoneNote})`}
            name="endsAt"
            style={{ flex: '1 1 220px', minWidth: 0 }}
            dependencies={['startsAt', 'recurrence']}
            rules={[check(() => endProblem(values(), tz, currentTime()))]}
          >
            <Input type="datetime-local" aria-label="Ends" style={{ colorScheme }} />
          </Form.Item>
        </div>
        <Form.Item
          label="Repeats"
          name="recurrence"
          extra={`Daily and weekly windows repeat the same local times; a daily one lasts at most ${MAINTENANCE_LIMITS.dailyMaxHours} hours, any at most ${MAINTENANCE_LIMITS.maxDays} days.`}
        >
          <Radio.Group options={MAINTENANCE_RECURRENCES.map((r) => ({ value: r, label: RECURRENCE_LABEL[r] }))} />
        </Form.Item>
        <Form.Item label="Reason" name="reason" rules={[check(() => reasonProblem(values().reason))]}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={MAINTENANCE_LIMITS.reasonMax}
            showCount
            placeholder="e.g. Firmware upgrade of the cameras"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
