// Saved namespaces with a real system keychain: gnome-keyring serving the Secret Service in a
// private D-Bus session (secret-service.sh with). The key goes to the keychain and never to the
// settings file, comes back from it, and goes when the namespace goes; the Connect dialog saves
// through it.

#include "PrivateHome.h"

#include "namespaces/ConnectDialog.h"
#include "namespaces/SavedNamespaces.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace namespaces_test;

class TestNamespacesKeychain : public QObject {
    Q_OBJECT
private slots:
    void init();
    void keychainAnswers();
    void secretRoundTripsThroughTheKeychainOnly();
    void savingWithoutAKeyForgetsTheOldOne();
    void dialogSavesTheKeyInTheKeychain();

private:
    // The secret saved for `id` (waits for the keychain's answer).
    NamespaceSecret readBack(SavedNamespaces& store, const QString& id, QString* problem = nullptr);
    SavedNamespace parsed(const QString& text, const QString& adminText = {});
};

void TestNamespacesKeychain::init() {
    if (privateHome().isEmpty())
        QSKIP("run through secret-service.sh: this test writes to a keychain");
}

NamespaceSecret TestNamespacesKeychain::readBack(SavedNamespaces& store, const QString& id,
                                                 QString* problem) {
    QSignalSpy read(&store, &SavedNamespaces::secretRead);
    store.readSecret(id);
    if (!read.wait(10000) && read.isEmpty())
        return {};
    if (problem)
        *problem = read.first().at(2).toString();
    return read.first().at(1).value<NamespaceSecret>();
}

SavedNamespace TestNamespacesKeychain::parsed(const QString& text, const QString& adminText) {
    SavedNamespace saved;
    auto connection = remote::parseConnectionString(text);
    if (!connection)
        qFatal("test string does not parse");
    saved.connection = connection.value();
    if (!adminText.isEmpty())
        saved.admin = remote::parseConnectionString(adminText).value();
    return saved;
}

void TestNamespacesKeychain::keychainAnswers() {
    SavedNamespaces store(privateSettings().get(), QStringLiteral("hourglass-test"));
    QCOMPARE(store.keychain(), SavedNamespaces::Keychain::Unknown);
    QSignalSpy changed(&store, &SavedNamespaces::keychainChanged);
    store.checkKeychain();
    QTRY_COMPARE_WITH_TIMEOUT(store.keychain(), SavedNamespaces::Keychain::Available, 10000);
    QCOMPARE(changed.size(), 1);
}

void TestNamespacesKeychain::secretRoundTripsThroughTheKeychainOnly() {
    const QString key = freshKey();
    const QString adminKey = freshKey();
    auto settings = privateSettings();
    SavedNamespace saved;
    QString id;
    {
        SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
        saved = parsed(QStringLiteral("Endpoint=sb://localhost;SharedAccessKeyName=Root;"
                                      "SharedAccessKey=%1;UseDevelopmentEmulator=true")
                           .arg(key),
                       QStringLiteral("Endpoint=sb://localhost:5300;SharedAccessKeyName=Root;"
                                      "SharedAccessKey=%1;UseDevelopmentEmulator=true")
                           .arg(adminKey));
        saved.name = QStringLiteral("Emulator on this machine");
        saved.readOnly = true;
        saved.webSockets = false;
        saved.caFile = QStringLiteral("/etc/ssl/extra-ca.pem");
        QSignalSpy done(&store, &SavedNamespaces::saved);
        id = store.save(saved);
        QVERIFY(!id.isEmpty());
        QVERIFY(done.wait(10000));
        QCOMPARE(done.first().at(0).toString(), id);
        QCOMPARE(done.first().at(1).toBool(), true); // kept in the keychain
        QCOMPARE(done.first().at(2).toString(), QString());
    }

    // The settings file names the namespace, and holds no key; no file anywhere in the private
    // home holds one in plain text (the keyring file is encrypted).
    settings->sync();
    const QByteArray file = fileBytes(settings->fileName());
    QVERIFY(file.contains("Emulator on this machine"));
    QVERIFY(file.contains("localhost"));
    QVERIFY(!file.contains(key.toUtf8()));
    QVERIFY(!file.contains(adminKey.toUtf8()));
    QCOMPARE(filesHolding(privateHome(), key), QStringList());
    QCOMPARE(filesHolding(privateHome(), adminKey), QStringList());

    // A new store (a restart) lists it without its key and reads the key back.
    SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
    const QList<SavedNamespace> listed = store.list();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().id, id);
    QCOMPARE(listed.first().name, QStringLiteral("Emulator on this machine"));
    QCOMPARE(listed.first().connection.keyName, QStringLiteral("Root"));
    QCOMPARE(listed.first().connection.key, QString());
    QVERIFY(listed.first().connection.developmentEmulator);
    QVERIFY(listed.first().admin.has_value());
    QCOMPARE(listed.first().admin->port, 5300);
    QCOMPARE(listed.first().admin->key, QString());
    QVERIFY(listed.first().readOnly);
    QCOMPARE(listed.first().caFile, QStringLiteral("/etc/ssl/extra-ca.pem"));

    QString problem;
    const NamespaceSecret secret = readBack(store, id, &problem);
    QCOMPARE(problem, QString());
    QCOMPARE(secret.key, key);
    QCOMPARE(secret.adminKey, adminKey);
    const SavedNamespace full = listed.first().withSecret(secret);
    QCOMPARE(full.connection.key, key);
    QCOMPARE(full.admin->key, adminKey);

    // Removed: off the list, out of the keychain.
    QSignalSpy removed(&store, &SavedNamespaces::removed);
    store.remove(id);
    QVERIFY(store.list().isEmpty());
    QVERIFY(removed.wait(10000));
    QCOMPARE(removed.first().at(1).toString(), QString());
    const NamespaceSecret gone = readBack(store, id, &problem);
    QVERIFY(gone.isEmpty());
    QVERIFY(!problem.isEmpty()); // "not found"
    QCOMPARE(store.keychain(), SavedNamespaces::Keychain::Available);
}

void TestNamespacesKeychain::savingWithoutAKeyForgetsTheOldOne() {
    auto settings = privateSettings(QStringLiteral("forget"));
    SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
    const QString key = freshKey();
    SavedNamespace saved = parsed(QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/;"
                                                 "SharedAccessKeyName=Listen;SharedAccessKey=%1")
                                      .arg(key));
    QSignalSpy done(&store, &SavedNamespaces::saved);
    saved.id = store.save(saved);
    QVERIFY(done.wait(10000));
    QCOMPARE(readBack(store, saved.id).key, key);

    // The same namespace saved again with no key (Entra ID later, say): the old key goes.
    saved.connection.credential = remote::ConnectionString::Credential::None;
    saved.connection.key.clear();
    saved.connection.keyName.clear();
    QCOMPARE(store.save(saved), saved.id);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 10000);
    QCOMPARE(done.at(1).at(1).toBool(), false);
    QCOMPARE(done.at(1).at(2).toString(), QString());
    QVERIFY(readBack(store, saved.id).isEmpty());
    QCOMPARE(store.list().size(), 1);
    store.remove(saved.id);
}

void TestNamespacesKeychain::dialogSavesTheKeyInTheKeychain() {
    auto settings = privateSettings(QStringLiteral("dialog"));
    SavedNamespaces store(settings.get(), QStringLiteral("hourglass-test"));
    ConnectDialog dialog(&store);
    dialog.show();
    QTRY_COMPARE_WITH_TIMEOUT(store.keychain(), SavedNamespaces::Keychain::Available, 10000);
    QVERIFY(!dialog.findChild<QWidget*>(QStringLiteral("keychainNote"))->isVisible());

    const QString key = freshKey();
    dialog.findChild<QLineEdit*>(QStringLiteral("connectionString"))
        ->setText(QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/;"
                                 "SharedAccessKeyName=RootManageSharedAccessKey;"
                                 "SharedAccessKey=%1")
                      .arg(key));
    dialog.findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("Contoso"));
    auto* save = dialog.findChild<QPushButton*>(QStringLiteral("save"));
    QVERIFY(save->isEnabled());
    QSignalSpy finished(&dialog, &QDialog::finished);
    save->click();
    QVERIFY(finished.wait(10000));
    QCOMPARE(dialog.result(), int(QDialog::Accepted));

    settings->sync();
    QVERIFY(fileBytes(settings->fileName()).contains("Contoso"));
    QCOMPARE(filesHolding(privateHome(), key), QStringList());
    QCOMPARE(readBack(store, dialog.savedId()).key, key);
    store.remove(dialog.savedId());
}

QTEST_MAIN(TestNamespacesKeychain)
#include "tst_ui_namespaces_keychain.moc"
