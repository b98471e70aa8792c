// Saved namespaces where no keychain answers: no D-Bus session bus at all (secret-service.sh
// without). The store says so, saves the namespace without its key, and writes the key nowhere;
// the Connect dialog shows the one-line note and saves all the same. Also the settings and
// keychain-entry formats on their own.

#include "PrivateHome.h"

#include "namespaces/ConnectDialog.h"
#include "namespaces/SavedNamespaces.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace namespaces_test;

class TestNamespacesNoKeychain : public QObject {
    Q_OBJECT
private slots:
    void init();
    void storeSaysNoKeychainAndWritesNoSecret();
    void dialogShowsTheNoteAndSaves();
    void settingsNeverHoldASecret();
    void keychainEntryReadsHostileTextAsEmpty();
};

void TestNamespacesNoKeychain::init() {
    if (privateHome().isEmpty())
        QSKIP("run through secret-service.sh: this test needs a home without a keychain");
}

void TestNamespacesNoKeychain::storeSaysNoKeychainAndWritesNoSecret() {
    auto settings = privateSettings();
    SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
    store.checkKeychain();
    QTRY_COMPARE_WITH_TIMEOUT(store.keychain(), SavedNamespaces::Keychain::Unavailable, 20000);

    const QString signature = QStringLiteral("SharedAccessSignature sr=sb%3A%2F%2Fcontoso&sig=") +
                              freshKey() + QStringLiteral("&se=1900000000&skn=Send");
    SavedNamespace saved;
    saved.connection = remote::parseConnectionString(
                           QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/;"
                                          "SharedAccessSignature=%1;EntityPath=orders")
                               .arg(signature))
                           .value();
    saved.webSockets = true;
    QSignalSpy done(&store, &SavedNamespaces::saved);
    const QString id = store.save(saved);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.first().at(0).toString(), id);
    QCOMPARE(done.first().at(1).toBool(), false);
    QCOMPARE(done.first().at(2).toString(), SavedNamespaces::unavailableText());

    settings->sync();
    QVERIFY(fileBytes(settings->fileName()).contains("contoso.servicebus.windows.net"));
    QCOMPARE(filesHolding(privateHome(), signature), QStringList());
    const QList<SavedNamespace> listed = store.list();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().name, QStringLiteral("contoso.servicebus.windows.net"));
    QCOMPARE(listed.first().connection.entityPath, QStringLiteral("orders"));
    QCOMPARE(listed.first().connection.credential,
             remote::ConnectionString::Credential::SignatureOnly);
    QCOMPARE(listed.first().connection.signature, QString());
    QVERIFY(listed.first().webSockets);
}

void TestNamespacesNoKeychain::dialogShowsTheNoteAndSaves() {
    auto settings = privateSettings(QStringLiteral("dialog"));
    SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
    ConnectDialog dialog(&store);
    dialog.show();
    auto* note = dialog.findChild<QLabel*>(QStringLiteral("keychainNote"));
    QTRY_VERIFY_WITH_TIMEOUT(note->isVisible(), 20000);
    QCOMPARE(note->text(), SavedNamespaces::unavailableText());

    const QString key = freshKey();
    dialog.findChild<QLineEdit*>(QStringLiteral("connectionString"))
        ->setText(
            QStringLiteral("Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;"
                           "SharedAccessKey=%1;UseDevelopmentEmulator=true")
                .arg(key));
    QSignalSpy finished(&dialog, &QDialog::finished);
    dialog.findChild<QPushButton*>(QStringLiteral("save"))->click();
    QVERIFY(finished.wait(5000));
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    settings->sync();
    QVERIFY(fileBytes(settings->fileName()).contains("RootManageSharedAccessKey"));
    QCOMPARE(filesHolding(privateHome(), key), QStringList());
    QCOMPARE(store.find(dialog.savedId())->name, QStringLiteral("localhost"));
}

void TestNamespacesNoKeychain::settingsNeverHoldASecret() {
    // Whatever the caller hands in, the settings writer leaves key and signature out.
    auto settings = privateSettings(QStringLiteral("writer"));
    SavedNamespace saved;
    saved.id = QStringLiteral("one");
    saved.connection.host = QStringLiteral("::1");
    saved.connection.port = 5671;
    saved.connection.key = QStringLiteral("plain-key-value");
    saved.admin = remote::ConnectionString();
    saved.admin->host = QStringLiteral("::1");
    saved.admin->signature = QStringLiteral("plain-signature-value");
    writeSavedNamespace(*settings, saved);
    settings->sync();
    const QByteArray file = fileBytes(settings->fileName());
    QVERIFY(file.contains("one"));
    QVERIFY(!file.contains("plain-key-value"));
    QVERIFY(!file.contains("plain-signature-value"));
    const auto read = readSavedNamespace(*settings, QStringLiteral("one"));
    QVERIFY(read.has_value());
    QCOMPARE(read->connection.host, QStringLiteral("::1"));
    QCOMPARE(read->connection.port, 5671);
    QVERIFY(read->admin.has_value());

    // A hand-edited group without a host is not a namespace; a port out of range reads as none.
    settings->setValue(QStringLiteral("namespaces/broken/name"), QStringLiteral("no host"));
    settings->setValue(QStringLiteral("namespaces/one/port"), 70000);
    QVERIFY(!readSavedNamespace(*settings, QStringLiteral("broken")).has_value());
    QCOMPARE(readSavedNamespace(*settings, QStringLiteral("one"))->connection.port, 0);
    removeSavedNamespace(*settings, QString()); // an empty id removes nothing
    QCOMPARE(savedNamespaceIds(*settings).size(), 2);
}

void TestNamespacesNoKeychain::keychainEntryReadsHostileTextAsEmpty() {
    NamespaceSecret secret;
    secret.key = QStringLiteral("k");
    secret.adminSignature = QStringLiteral("s");
    QCOMPARE(NamespaceSecret::fromJson(secret.toJson()), secret);
    QVERIFY(NamespaceSecret::fromJson("not json").isEmpty());
    QVERIFY(NamespaceSecret::fromJson("[1,2]").isEmpty());
    QVERIFY(NamespaceSecret::fromJson(R"({"key": 5})").isEmpty());
}

QTEST_MAIN(TestNamespacesNoKeychain)
#include "tst_ui_namespaces_no_keychain.moc"
