#pragma once
// What the TLS stream tests start from: a local authority and server certificate made in a
// temporary folder, and the server context loaded from them.

#include "hourglass/tls/LocalCertificates.h"
#include "hourglass/tls/TlsStream.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace hourglass::tls {

struct ServerCertificateFixture {
    QTemporaryDir dir;
    CertificateFiles files;
    std::shared_ptr<const TlsServerContext> context;

    // In initTestCase: QVERIFY(m_tls.make());
    bool make() {
        if (!dir.isValid())
            return false;
        const Result<CertificateFiles> made = LocalCertificates::ensure(dir.path(), {});
        if (!made.ok()) {
            qWarning("%s", qPrintable(made.error().toString()));
            return false;
        }
        files = *made;
        const auto loaded = TlsServerContext::fromFiles(files.serverCertificate, files.serverKey);
        if (!loaded.ok()) {
            qWarning("%s", qPrintable(loaded.error().toString()));
            return false;
        }
        context = *loaded;
        return true;
    }
};

} // namespace hourglass::tls
