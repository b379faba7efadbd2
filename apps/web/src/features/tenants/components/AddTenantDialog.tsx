import { Form, Modal, Result, Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { validated } from '../../../lib/forms.ts';
import { useCreateTenantMutation } from '../api.ts';
import { cleanTenantForm, tenantFormDefaults, TenantFormFields, type TenantFormValues } from './TenantFormFields.tsx';

/** Add Tenant dialog, then a success dialog pointing to the users page (docs/web.md "Pages of web I"). */
export function AddTenantDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<TenantFormValues>();
  const [create, { isLoading }] = useCreateTenantMutation();
  const [created, setCreated] = useState<{ id: number; name: string } | null>(null);
  const navigate = useNavigate();

  const submit = async () => {
    const values = await validated(form);
    if (!values) return; // the messages show under the fields
    const result = await create(cleanTenantForm(values));
    if (!('data' in result) || !result.data) return;
    form.resetFields();
    onClose();
    setCreated({ id: result.data.data.id, name: result.data.data.name });
  };

  return (
    <>
      <Modal
        title="Add Tenant"
        open={open}
        onCancel={onClose}
        onOk={submit}
        okText="Add Tenant"
        confirmLoading={isLoading}
        width={720}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={tenantFormDefaults} requiredMark={false} preserve={false}>
          <TenantFormFields />
        </Form>
      </Modal>
      <Modal open={!!created} onCancel={() => setCreated(null)} footer={null} title={null}>
        <Result
          status="success"
          title="Tenant created"
          subTitle={`${created?.name ?? ''} is ready. Add its first users on the Users page: they receive an email to choose their password.`}
          extra={[
            <Button key="close" onClick={() => setCreated(null)}>
              Close
            </Button>,
            <Button
              key="users"
              type="primary"
              onClick={() => {
                setCreated(null);
                void navigate('/dashboards/users');
              }}
            >
              Go to Users
            </Button>,
          ]}
        />
      </Modal>
    </>
  );
}
