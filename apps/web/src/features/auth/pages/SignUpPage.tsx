import { Button, Col, Form, Input, Row, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { MSG, joinName } from '@vigil/contracts';
import { notify } from '../../../lib/notify.ts';
import { useRegisterMutation } from '../api.ts';

interface SignUpForm {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
}

/** Sign up (docs/product.md "Validation"): first and last name are sent combined as `name`; success leads to sign-in. */
export default function SignUpPage() {
  const [register, { isLoading }] = useRegisterMutation();
  const navigate = useNavigate();

  const onFinish = async (v: SignUpForm) => {
    const result = await register({
      name: joinName(v.firstName, v.lastName),
      email: v.email.trim(),
      phone: v.phone.trim(),
      password: v.password,
    });
    if (!('data' in result)) return;
    notify.success(MSG.accountCreated);
    void navigate('/auth/signin');
  };

  const required = (message: string) => [{ required: true, whitespace: true, message }];
  return (
    <>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Create your account
      </Typography.Title>
      <Form<SignUpForm> layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item label="First name" name="firstName" rules={required(MSG.firstName)}>
              <Input autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item label="Last name" name="lastName" rules={required(MSG.lastName)}>
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label="Email" name="email" rules={required(MSG.email)}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label="Phone" name="phone" rules={required(MSG.phone)}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item label="Password" name="password" rules={[{ required: true, message: MSG.password }]} extra="At least 8 characters.">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Confirm password"
          name="confirmPassword"
          dependencies={['password']}
          rules={[
            { required: true, message: MSG.confirmPassword },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('password') === value ? Promise.resolve() : Promise.reject(new Error(MSG.passwordsMatchSignup)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={isLoading}>
          Sign up
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'center' }}>
        Already have an account? <Link to="/auth/signin">Sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
