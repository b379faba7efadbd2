import { Button, Card, Col, Form, Input, Row, Select, Skeleton, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { MSG, SELECTABLE_ROLES, type UpdateUserBody } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ErrorState } from '../../../components/TableStates.tsx';
import { notify } from '../../../lib/notify.ts';
import { isSuperAdmin } from '../../../lib/session/authSlice.ts';
import { ChangePasswordDialog } from '../../auth/index.ts';
import { useUpdateUserMutation, useUserQuery } from '../api.ts';
import { TenantSelect } from '../components/TenantSelect.tsx';

interface UserForm {
  tenantId?: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  roles: UpdateUserBody['roles'];
}

/** User detail (docs/web.md "Pages of web I"): Tenant (superAdmin), names, email, phone, roles; Change Password for one's own account. */
export default function UserDetailPage() {
  const id = Number(useParams().id);
  const auth = useAuth();
  const superAdmin = isSuperAdmin(auth);
  const { data, isLoading, error, refetch } = useUserQuery(id);
  const [update, { isLoading: saving }] = useUpdateUserMutation();
  const [form] = Form.useForm<UserForm>();
  const [changing, setChanging] = useState(false);
  const user = data?.data;
  const own = user?.id === auth.userId;
  useEffect(() => {
    if (user)
      form.setFieldsValue({
        ...user,
        tenantId: user.tenantId > 0 ? user.tenantId : undefined,
        roles: user.roles.filter((r) => r !== 'superAdmin') as UserForm['roles'],
      });
  }, [user, form]);

  const onFinish = async (v: UserForm) => {
    const body: UpdateUserBody = {
      firstName: v.firstName.trim(),
      lastName: (v.lastName ?? '').trim(),
      email: v.email.trim(),
      phone: v.phone.trim(),
    };
    if (!user?.roles.includes('superAdmin')) body.roles = v.roles;
    if (superAdmin && v.tenantId) body.tenantId = v.tenantId;
    const result = await update({ id, body });
    if ('data' in result) notify.success(MSG.userUpdated);
  };

  const editsPlatformAdmin = user?.roles.includes('superAdmin') ?? false;
  const required = (message: string) => [{ required: true, whitespace: true, message }];
  return (
    <>
      <PageHeader
        title={user?.name ?? 'User'}
        lastCrumb={user?.name}
        extra={own && <Button onClick={() => setChanging(true)}>Change Password</Button>}
      />
      {error ? (
        <ErrorState error={error} onRetry={refetch} />
      ) : isLoading ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <Card>
          <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} style={{ maxWidth: 880 }}>
            <Row gutter={16}>
              {superAdmin && !editsPlatformAdmin && (
                <Col xs={24}>
                  <Form.Item label="Tenant" name="tenantId" rules={[{ required: true, message: MSG.editTenant }]}>
                    <TenantSelect />
                  </Form.Item>
                </Col>
              )}
              <Col xs={24} md={12}>
                <Form.Item label="First Name" name="firstName" rules={required(MSG.firstName)}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item label="Last Name" name="lastName">
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item label="Email" name="email" rules={required(MSG.email)}>
                  <Input type="email" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item label="Phone" name="phone" rules={required(MSG.phone)}>
                  <Input type="tel" />
                </Form.Item>
              </Col>
              {!editsPlatformAdmin && (
                <Col xs={24}>
                  <Form.Item label="Roles" name="roles" rules={[{ required: true, type: 'array', min: 1, message: MSG.editRoles }]}>
                    <Select mode="multiple" options={SELECTABLE_ROLES.map((r) => ({ value: r, label: r }))} />
                  </Form.Item>
                </Col>
              )}
            </Row>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                Save
              </Button>
            </Space>
          </Form>
        </Card>
      )}
      {user && <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} email={user.email} />}
    </>
  );
}
