import { Button, Col, Descriptions, Form, Input, Row, Skeleton, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { MSG } from '@vigil/contracts';
import { ErrorState } from '../../../components/TableStates.tsx';
import { notify } from '../../../lib/notify.ts';
import { useMeQuery, useUpdateMeMutation, ChangePasswordDialog } from '../../auth/index.ts';

interface ProfileForm {
  firstName: string;
  lastName: string;
  phone: string;
}

/** The signed-in user's profile (GET/PATCH /v0/auth/me) with Change Password. */
export function ProfilePanel() {
  const { data, isLoading, error, refetch } = useMeQuery();
  const [update, { isLoading: saving }] = useUpdateMeMutation();
  const [form] = Form.useForm<ProfileForm>();
  const [changing, setChanging] = useState(false);
  const me = data?.data;
  useEffect(() => {
    if (me) form.setFieldsValue(me);
  }, [me, form]);

  if (isLoading) return <Skeleton active />;
  if (error || !me) return <ErrorState error={error} onRetry={refetch} />;

  const onFinish = async (v: ProfileForm) => {
    const body = { firstName: v.firstName.trim(), phone: v.phone.trim(), ...(v.lastName?.trim() ? { lastName: v.lastName.trim() } : {}) };
    const result = await update(body);
    if ('data' in result) notify.success(MSG.userUpdated);
  };

  const required = (message: string) => [{ required: true, whitespace: true, message }];
  return (
    <>
      <Descriptions
        size="small"
        style={{ marginBottom: 16 }}
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: 'e', label: 'Email', children: me.email },
          { key: 't', label: 'Tenant', children: me.tenantName || '-' },
          { key: 'r', label: 'Roles', children: me.roles.length ? me.roles.map((r) => <Tag key={r}>{r}</Tag>) : '-' },
        ]}
      />
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} style={{ maxWidth: 880 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item label="First Name" name="firstName" rules={required(MSG.firstName)}>
              <Input autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Last Name" name="lastName">
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label="Phone" name="phone" rules={required(MSG.phone)}>
              <Input type="tel" autoComplete="tel" />
            </Form.Item>
          </Col>
        </Row>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={saving}>
            Save
          </Button>
          <Button onClick={() => setChanging(true)}>Change Password</Button>
          <Link to="/auth/account-delete">Delete my account</Link>
        </Space>
      </Form>
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} email={me.email} />
    </>
  );
}
