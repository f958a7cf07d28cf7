#include "NodeClassIcon.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <map>

namespace ua::app {

QIcon nodeClassIcon(NodeClass nodeClass) {
    // A QPixmap needs a QGuiApplication (a headless test's QCoreApplication has none).
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) return {};
    static std::map<int, QIcon> cache;
    if (auto it = cache.find(int(nodeClass)); it != cache.end()) return it->second;
    QPixmap pm(16, 16);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor blue(0x2f, 0x6f, 0xd0), green(0x2e, 0x9e, 0x4f), purple(0x8e, 0x44, 0xad);
    const QColor orange(0xe6, 0x7e, 0x22), grey(0x70, 0x70, 0x70), teal(0x16, 0xa0, 0x85);
    const QRectF box(2.5, 2.5, 11, 11);
    switch (nodeClass) {
    case NodeClass::Object:
        p.setPen(blue.darker(130));
        p.setBrush(blue);
        p.drawRoundedRect(box, 2, 2);
        break;
    case NodeClass::ObjectType:
        p.setPen(QPen(blue, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        break;
    case NodeClass::Variable:
        p.setPen(green.darker(130));
        p.setBrush(green);
        p.drawEllipse(box);
        break;
    case NodeClass::VariableType:
        p.setPen(QPen(green, 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(box.adjusted(0.5, 0.5, -0.5, -0.5));
        break;
    case NodeClass::Method: {
        QPainterPath tri;
        tri.moveTo(3, 2);
        tri.lineTo(14, 8);
        tri.lineTo(3, 14);
        tri.closeSubpath();
        p.setPen(purple.darker(130));
        p.setBrush(purple);
        p.drawPath(tri);
        break;
    }
    case NodeClass::DataType: {
        QPainterPath d;
        d.moveTo(8, 1.5);
        d.lineTo(14.5, 8);
        d.lineTo(8, 14.5);
        d.lineTo(1.5, 8);
        d.closeSubpath();
        p.setPen(orange.darker(130));
        p.setBrush(orange);
        p.drawPath(d);
        break;
    }
    case NodeClass::ReferenceType:
        p.setPen(QPen(grey, 2));
        p.drawLine(QPointF(2, 8), QPointF(13, 8));
        p.drawLine(QPointF(9, 4), QPointF(13, 8));
        p.drawLine(QPointF(9, 12), QPointF(13, 8));
        break;
    case NodeClass::View:
        p.setPen(QPen(teal, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(1.5, 4.5, 13, 7));
        p.setBrush(teal);
        p.drawEllipse(QRectF(6, 6, 4, 4));
        break;
    default:
        p.setPen(Qt::NoPen);
        p.setBrush(grey);
        p.drawEllipse(QRectF(5, 5, 6, 6));
        break;
    }
    p.end();
    QIcon icon(pm);
    cache.emplace(int(nodeClass), icon);
    return icon;
}

} // namespace ua::app
