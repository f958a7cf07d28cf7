#include "LogPage.h"

#include "models/LogModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace ua::app {

LogPage::LogPage(serverapp::LogCapture* capture, QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("logPage"));
    m_model = new serverapp::LogModel(10000, this);
    m_model->attach(capture);
    m_filter = new serverapp::LogFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_level = new QComboBox;
    m_level->setObjectName(QStringLiteral("logLevel"));
    for (QtMsgType t : {QtDebugMsg, QtInfoMsg, QtWarningMsg, QtCriticalMsg})
        m_level->addItem(serverapp::logLevelName(t), int(t));
    m_category = new QComboBox;
    m_category->setObjectName(QStringLiteral("logCategory"));
    m_category->addItem(tr("all categories"), QString());
    m_category->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_search->setPlaceholderText(tr("Search messages and categories"));
    m_search->setClearButtonEnabled(true);
    auto* clear = new QPushButton(tr("Clear"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Level at least")));
    bar->addWidget(m_level);
    bar->addWidget(m_category);
    bar->addWidget(m_search, 1);
    bar->addWidget(clear);

    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("logView"));
    m_view->setModel(m_filter);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setColumnWidth(serverapp::LogModel::Time, fm.horizontalAdvance(QStringLiteral("2026-11-30 08:00:00.000")) + 16);
    m_view->setColumnWidth(serverapp::LogModel::Level, fm.horizontalAdvance(QStringLiteral("critical")) + 16);
    m_view->setColumnWidth(serverapp::LogModel::Category, fm.horizontalAdvance(QStringLiteral("ua.server.subscriptions")) + 16);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_level, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setMinimumLevel(QtMsgType(m_level->currentData().toInt())); });
    connect(m_category, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setCategory(m_category->currentData().toString()); });
    connect(m_search, &QLineEdit::textChanged, m_filter, &serverapp::LogFilterModel::setSearchText);
    connect(clear, &QPushButton::clicked, m_model, &serverapp::LogModel::clear);
    connect(m_model, &serverapp::LogModel::categoriesChanged, this, [this](const QStringList& categories) {
        const QString current = m_category->currentData().toString();
        const QSignalBlocker block(m_category);
        while (m_category->count() > 1) m_category->removeItem(1);
        for (const QString& c : categories) m_category->addItem(c, c);
        m_category->setCurrentIndex(std::max(0, m_category->findData(current)));
    });
    // Follow the newest record while the view is at the bottom.
    connect(m_filter, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] {
        QScrollBar* bar = m_view->verticalScrollBar();
        m_view->setProperty("follow", bar->value() == bar->maximum());
    });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_view->property("follow").toBool()) m_view->scrollToBottom();
    });
}

} // namespace ua::app
